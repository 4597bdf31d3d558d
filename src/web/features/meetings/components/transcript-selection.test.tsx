import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Speaker, TranscriptSegment } from '#shared/contracts/meetings.ts';
import { TranscriptView } from './transcript-view.tsx';

afterEach(cleanup);

const speakers = [
  { id: 'alex', label: 'Speaker 1', displayName: 'Alex' },
  { id: 'sam', label: 'Speaker 2', displayName: null },
] as Speaker[];
const line = (n: number, speakerId: string): TranscriptSegment =>
  ({ id: `line-${n}`, speakerId, startMs: n * 10_000, endMs: n * 10_000 + 9_000, text: `Line number ${n} here` }) as TranscriptSegment;
const segments = [line(0, 'alex'), line(1, 'sam'), line(2, 'alex'), line(3, 'sam'), line(4, 'alex')];

const box = (time: string) => screen.getByRole('checkbox', { name: `Select the line at ${time}` }) as HTMLInputElement;
const checked = () => screen.queryAllByRole('checkbox').flatMap((b) => ((b as HTMLInputElement).checked ? [b.getAttribute('aria-label')!.slice(-5)] : []));

function renderView(onMove = vi.fn(() => Promise.resolve())) {
  render(<TranscriptView segments={segments} speakers={speakers} currentMs={null} onMove={onMove} />);
  return onMove;
}

describe('selecting transcript lines to move them together', () => {
  it('selects a range with Shift+click, and moves the lines in transcript order to the speaker chosen, then lets them go', async () => {
    const onMove = renderView();
    expect(screen.queryByRole('toolbar', { name: 'Selected lines' })).toBeNull();
    fireEvent.click(box('00:30'));
    fireEvent.click(box('00:10'), { shiftKey: true });
    expect(checked()).toEqual(['00:10', '00:20', '00:30']);
    expect(screen.getByRole('toolbar', { name: 'Selected lines' }).textContent).toContain('3 lines selected');
    // A plain click adds or removes one line.
    fireEvent.click(box('00:20'));
    expect(checked()).toEqual(['00:10', '00:30']);

    const trigger = screen.getByRole('button', { name: 'Move to…' });
    fireEvent.keyDown(trigger, { key: 'Enter' });
    fireEvent.click(await screen.findByRole('menuitem', { name: 'A new speaker' }));
    expect(onMove).toHaveBeenCalledExactlyOnceWith(['line-1', 'line-3'], 'new');
    await waitFor(() => expect(checked()).toEqual([]));
    expect(screen.queryByRole('toolbar', { name: 'Selected lines' })).toBeNull();
  });

  it('extends the selection with Shift+arrow keys from the line with the focus, and Escape lets it go', () => {
    renderView();
    box('00:10').focus();
    fireEvent.keyDown(box('00:10'), { key: 'ArrowDown', shiftKey: true });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown', shiftKey: true });
    expect(document.activeElement).toBe(box('00:30'));
    expect(checked()).toEqual(['00:10', '00:20', '00:30']);
    // Back up past the anchor: the range is the other way round.
    for (let i = 0; i < 3; i++) fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp', shiftKey: true });
    expect(document.activeElement).toBe(box('00:00'));
    expect(checked()).toEqual(['00:00', '00:10']);
    // Arrows without Shift select nothing.
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(checked()).toEqual(['00:00', '00:10']);
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(checked()).toEqual([]);
  });

  it('offers no selection where the transcript cannot be edited', () => {
    render(<TranscriptView segments={segments} speakers={speakers} currentMs={null} />);
    expect(screen.queryAllByRole('checkbox')).toEqual([]);
  });
});
