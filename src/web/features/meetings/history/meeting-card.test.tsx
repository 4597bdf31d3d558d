import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { MeetingSummary } from '#shared/contracts/meetings.ts';
import { SignedIn } from '#tests/support/web/test-auth.tsx';
import { MeetingCard } from './meeting-card.tsx';

afterEach(cleanup);

const meeting = (overrides: Partial<MeetingSummary>): MeetingSummary => ({
  id: '6f1c2b8e-3d4a-4e5f-9a6b-7c8d9e0f1a2b',
  title: 'Roadmap review',
  startedAt: '2026-03-02T10:00:00.000Z',
  durationSeconds: 1800,
  status: 'ready',
  source: 'upload',
  participants: [],
  summary: null,
  isSample: false,
  hasAudio: true,
  createdAt: '2026-03-02T10:00:00.000Z',
  ...overrides,
});

const show = (m: MeetingSummary) =>
  render(
    <SignedIn>
      <MeetingCard meeting={m} ShareDialog={() => null} />
    </SignedIn>,
  );

describe('a history card', () => {
  it('shows the first sentence of the summary, not the whole of it', () => {
    show(meeting({ summary: 'Q3 priorities agreed: mobile app first. Analytics dashboards move to Q4. Interviews start next week.' }));
    const card = screen.getByRole('article', { name: 'Roadmap review' });
    expect(card.textContent).toContain('Q3 priorities agreed: mobile app first.');
    expect(card.textContent).not.toContain('Analytics dashboards');
  });

  it('does not cut a sentence at a title such as Dr.', () => {
    show(meeting({ summary: 'Dr. Chen presented the results. Everyone agreed.' }));
    expect(screen.getByRole('article').textContent).toContain('Dr. Chen presented the results.');
    expect(screen.getByRole('article').textContent).not.toContain('Everyone agreed.');
  });

  it('says "No summary yet." only while there is none', () => {
    show(meeting({ summary: null }));
    expect(screen.getByText('No summary yet.')).toBeTruthy();
    cleanup();
    show(meeting({ summary: 'Short and sweet' }));
    expect(screen.queryByText('No summary yet.')).toBeNull();
    expect(screen.getByText('Short and sweet')).toBeTruthy();
  });

  it('lists the participants the server gives, named speakers among them', () => {
    show(meeting({ participants: ['Ada Lovelace', 'Grace Hopper'] }));
    expect(screen.getByText('Participants:').parentElement?.textContent).toBe('Participants: Ada Lovelace, Grace Hopper');
  });
});
