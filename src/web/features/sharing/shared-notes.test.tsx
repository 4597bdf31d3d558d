import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Insight } from '#shared/contracts/notes.ts';
import { lineAnchor, SharedNotes } from './shared-notes.tsx';

afterEach(cleanup);

let n = 0;
const item = (kind: Insight['kind'], startMs: number, text: string, more: Partial<Insight> = {}): Insight => {
  n += 1;
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    kind,
    text,
    segmentIds: ['00000000-0000-4000-8000-000000000999'],
    startMs,
    endMs: null,
    assignee: null,
    due: null,
    dueText: null,
    status: 'open',
    suggested: false,
    ...more,
  };
};

const NOTES = [
  item('action_item', 3_725_000, 'Tell the printers', { status: 'done' }),
  item('action_item', 65_000, 'Order the blue paint', { assignee: 'Grace Hopper', due: '2026-11-27', dueText: 'by Friday' }),
  item('action_item', 1000, 'Paint it red', { status: 'dismissed' }),
  item('key_point', 1000, 'Blue tested best.'),
  item('decision', 3_725_000, 'Ship the blue one.'),
  item('topic', 60_000, 'Wrap-up', { endMs: 3_727_000 }),
];

describe('SharedNotes', () => {
  it('shows each kind with the moment it was said, in order, action items with owner, due date and status', () => {
    render(<SharedNotes insights={NOTES} status="ready" />);
    const actions = within(screen.getByRole('region', { name: 'Action items' })).getAllByRole('listitem');
    expect(actions.map((li) => li.textContent)).toEqual([
      '01:05Order the blue paintGrace Hopper · Due by Friday (Fri, Nov 27, 2026) · Open',
      '1:02:05Tell the printersUnassigned · No due date · Done',
    ]);
    expect(screen.getByRole('region', { name: 'Key points' }).textContent).toContain('00:01Blue tested best.');
    expect(screen.getByRole('region', { name: 'Decisions' }).textContent).toContain('1:02:05Ship the blue one.');
    expect(screen.getByRole('region', { name: 'Topics' }).textContent).toContain('01:00–1:02:07Wrap-up');
    expect(screen.queryByText('Paint it red')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it("links each item's time to the transcript line it cites", () => {
    render(<SharedNotes insights={NOTES} status="ready" />);
    const link = screen.getByRole('link', { name: 'Go to where this was said: 01:05' });
    expect(link.getAttribute('href')).toBe(`#${lineAnchor('00000000-0000-4000-8000-000000000999')}`);
    expect(link.textContent).toBe('01:05');
  });

  it('says the notes are still being written or could not be written, instead of showing nothing', () => {
    const { rerender } = render(<SharedNotes insights={[]} status="running" />);
    screen.getByText('The notes of this meeting are still being written. Reload the page in a moment to see them.');
    rerender(<SharedNotes insights={[]} status="failed" />);
    screen.getByText('The notes of this meeting could not be written.');
    rerender(<SharedNotes insights={[]} status="ready" />);
    screen.getByText('No key points, action items, decisions or topics were found in this meeting.');
    rerender(<SharedNotes insights={[]} status="off" />);
    expect(screen.queryByRole('heading', { name: 'Insights' })).toBeNull();
  });
});
