import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { MeetingListItem } from '#shared/contracts/meetings.ts';
import { SignedIn } from '#tests/support/web/test-auth.tsx';
import { MeetingCard } from './meeting-card.tsx';

afterEach(cleanup);

const meeting = (overrides: Partial<MeetingListItem>): MeetingListItem => ({
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

const show = (m: MeetingListItem) =>
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

  it('in a search, shows why the meeting matched: marked words, speaker and time, each a link to its moment', () => {
    show(
      meeting({
        summary: 'Not shown while searching.',
        matches: [
          {
            kind: 'transcript',
            segmentId: '0d9c2b8e-3d4a-4e5f-9a6b-7c8d9e0f1a2b',
            speaker: 'Priya Raman',
            startMs: 65_000,
            snippet: [
              { text: 'The ', match: false },
              { text: 'vendor', match: true },
              { text: ' invoices are late.', match: false },
            ],
          },
          { kind: 'summary', segmentId: null, speaker: null, startMs: null, snippet: [{ text: 'vendor', match: true }] },
          { kind: 'action_item', segmentId: null, speaker: 'Tomás Ortega', startMs: 7000, snippet: [{ text: 'Call the vendor', match: false }] },
        ],
      }),
    );
    const matches = screen.getByRole('list', { name: 'Matches in Roadmap review' });
    const links = matches.querySelectorAll('a');
    expect([...links].map((a) => a.getAttribute('href'))).toEqual([
      '/meetings/6f1c2b8e-3d4a-4e5f-9a6b-7c8d9e0f1a2b?t=65000',
      '/meetings/6f1c2b8e-3d4a-4e5f-9a6b-7c8d9e0f1a2b',
      '/meetings/6f1c2b8e-3d4a-4e5f-9a6b-7c8d9e0f1a2b?t=7000',
    ]);
    expect(links[0]!.textContent).toBe('Priya Raman · 01:05The vendor invoices are late.');
    expect(links[0]!.querySelector('mark')?.textContent).toBe('vendor');
    expect(links[1]!.textContent).toBe('Summaryvendor');
    expect(links[2]!.textContent).toContain('Action item · Tomás Ortega · 00:07');
    expect(screen.queryByText('Not shown while searching.')).toBeNull();
  });

  it('marks a teammate’s meeting "Shared by <owner>", and not one’s own', () => {
    const owner = { id: 'd0000000-0000-4000-8000-000000000001', name: 'Sam Sharer' };
    show(meeting({ access: 'team', owner, teamId: 'e0000000-0000-4000-8000-000000000001' }));
    expect(screen.getByRole('article', { name: 'Roadmap review' }).textContent).toContain('Shared by Sam Sharer');
    cleanup();
    show(meeting({ access: 'owner', owner, teamId: 'e0000000-0000-4000-8000-000000000001' }));
    expect(screen.getByRole('article', { name: 'Roadmap review' }).textContent).not.toContain('Shared by');
  });
});
