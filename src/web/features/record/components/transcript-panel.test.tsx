import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TranscriptPanel } from './transcript-panel.tsx';

afterEach(cleanup);

describe('the live transcription panel while the server’s recognisers are all busy', () => {
  it('says the transcript waits for a free slot, with its place in line', () => {
    const { rerender } = render(<TranscriptPanel lines={[]} mode="recording" live={{ state: 'waiting', position: 3 }} />);
    expect(screen.getByText('Recording. Waiting for a free live-transcription slot (number 3 in line); lines appear once one frees.')).toBeTruthy();
    rerender(<TranscriptPanel lines={[]} mode="recording" live={{ state: 'waiting', position: 1 }} />);
    expect(screen.getByText('Recording. Waiting for a free live-transcription slot (next in line); lines appear once one frees.')).toBeTruthy();
  });

  it('says so under the lines already shown when a resumed recording waits again', () => {
    render(
      <TranscriptPanel
        lines={[{ time: '00:04', speaker: 'Speaker 1', text: 'go forward ten meters' }]}
        mode="recording"
        live={{ state: 'waiting', position: 2 }}
      />,
    );
    expect(screen.getByText(/go forward ten meters/)).toBeTruthy();
    expect(screen.getByText('Recording. Waiting for a free live-transcription slot (number 2 in line); lines appear once one frees.')).toBeTruthy();
  });
});
