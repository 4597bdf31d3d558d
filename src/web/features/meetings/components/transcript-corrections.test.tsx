import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TranscriptSegment } from '#shared/contracts/meetings.ts';
import { SignedIn } from '#tests/support/web/test-auth.tsx';
import { TranscriptView } from './transcript-view.tsx';

afterEach(cleanup);

const SPEAKER = '33333333-3333-4333-8333-333333333333';
const LINE: TranscriptSegment = {
  id: '44444444-4444-4444-8444-444444444444',
  speakerId: SPEAKER,
  startMs: 0,
  endMs: 4000,
  text: 'Hello Anika Okafor we moved the Parley notes.',
  confidence: 0.9,
  corrections: [
    { id: '55555555-5555-4555-8555-555555555555', position: 6, original: 'anica okay for', corrected: 'Anika Okafor' },
    { id: '66666666-6666-4666-8666-666666666666', position: 32, original: 'parlay', corrected: 'Parley' },
  ],
};
const speakers = [{ id: SPEAKER, label: 'Speaker 1', displayName: 'Dana' }];

describe('a transcript line corrected from the custom vocabulary', () => {
  it('says what was heard, and its owner can undo each correction', async () => {
    const onUndoCorrection = vi.fn(async () => undefined);
    render(<TranscriptView segments={[LINE]} speakers={speakers} currentMs={null} onUndoCorrection={onUndoCorrection} onEdit={async () => undefined} />, {
      wrapper: SignedIn,
    });
    const list = within(screen.getByRole('list', { name: 'Vocabulary corrections' }));
    list.getByText('Heard “anica okay for”, corrected to “Anika Okafor” from your vocabulary');
    list.getByText('Heard “parlay”, corrected to “Parley” from your vocabulary');
    await act(async () => {
      fireEvent.click(list.getByRole('button', { name: 'Undo the correction of “parlay” to “Parley”' }));
    });
    expect(onUndoCorrection).toHaveBeenCalledWith('66666666-6666-4666-8666-666666666666');
  });

  it('offers no Undo to a reader who may not edit the meeting', () => {
    render(<TranscriptView segments={[LINE]} speakers={speakers} currentMs={null} />, { wrapper: SignedIn });
    screen.getByText('Heard “parlay”, corrected to “Parley” from your vocabulary');
    expect(screen.queryByRole('button', { name: /^Undo the correction/ })).toBeNull();
  });
});
