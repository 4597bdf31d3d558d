import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MeetingSummary } from '#shared/contracts/meetings.ts';
import { ProcessingStatus, stageText } from './processing-status.tsx';
import { progressStore } from '#web/lib/realtime/realtime-store.ts';

afterEach(() => {
  cleanup();
  progressStore.clear();
});

const MEETING_ID = '6f1c2b8e-3d4a-4e5f-9a6b-7c8d9e0f1a2b';
type Shown = Pick<MeetingSummary, 'id' | 'status' | 'processing' | 'failureReason' | 'hasAudio'>;
const meeting = (overrides: Partial<Shown>): Shown => ({
  id: MEETING_ID,
  status: 'processing',
  processing: null,
  failureReason: null,
  hasAudio: true,
  ...overrides,
});

function show(m: Shown) {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <ProcessingStatus meeting={m} />
    </QueryClientProvider>,
  );
}

describe('stageText', () => {
  it('reads a stage with its percentage while it is under way', () => {
    expect(stageText('transcribing', 0.4)).toBe('Transcribing… 40%');
    expect(stageText('transcribing', 0)).toBe('Transcribing…');
    expect(stageText('queued', null)).toBe('Waiting for its turn…');
    expect(stageText('identifying speakers', null)).toBe('Telling speakers apart…');
  });
});

describe('ProcessingStatus', () => {
  it('shows the stage the server gave with the meeting until the socket brings news', () => {
    show(meeting({ processing: { stage: 'transcribing', progress: 0.4 } }));
    expect(screen.getByRole('status').textContent).toBe('Transcribing… 40%');
    expect(screen.getByRole('progressbar', { name: 'Transcription progress' })).toBeTruthy();

    act(() =>
      progressStore.set({ type: 'meeting.progress', meetingId: MEETING_ID, status: 'processing', stage: 'transcribing', progress: 0.75, failureReason: null }),
    );
    expect(screen.getByRole('status').textContent).toBe('Transcribing… 75%');
    act(() =>
      progressStore.set({ type: 'meeting.progress', meetingId: MEETING_ID, status: 'processing', stage: 'saving', progress: null, failureReason: null }),
    );
    expect(screen.getByRole('status').textContent).toBe('Saving the transcript…');
  });

  it('counts down to a retry from the time the server gave, a second at a time', () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    try {
      const retryAt = new Date(Date.now() + 30_000).toISOString();
      show(meeting({ processing: { stage: 'waiting to retry', progress: null, retryAt } }));
      expect(screen.getByRole('status').textContent).toBe('Waiting to retry in 30 s…');
      act(() => vi.advanceTimersByTime(5_000));
      expect(screen.getByRole('status').textContent).toBe('Waiting to retry in 25 s…');
      act(() => vi.advanceTimersByTime(25_000));
      expect(screen.getByRole('status').textContent).toBe('Waiting to retry…');
      act(() =>
        progressStore.set({ type: 'meeting.progress', meetingId: MEETING_ID, status: 'processing', stage: 'decoding', progress: null, failureReason: null }),
      );
      expect(screen.getByRole('status').textContent).toBe('Reading the recording…');
    } finally {
      vi.useRealTimers();
    }
  });

  it('turns into the failure with its reason and Retry when the job fails live', () => {
    show(meeting({ processing: { stage: 'transcribing', progress: 0.2 } }));
    act(() =>
      progressStore.set({
        type: 'meeting.progress',
        meetingId: MEETING_ID,
        status: 'failed',
        stage: null,
        progress: null,
        failureReason: 'The transcription service did not answer within 600 s.',
      }),
    );
    expect(screen.getByRole('alert').textContent).toContain('The transcript could not be made: The transcription service did not answer within 600 s.');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('offers Retry only where a recording is stored', () => {
    show(meeting({ status: 'failed', failureReason: 'The file contains no audio.', hasAudio: false }));
    expect(screen.getByRole('alert').textContent).toContain('The file contains no audio.');
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('ignores news about other meetings and shows nothing once the meeting is ready', () => {
    const { container } = show(meeting({ status: 'ready' }));
    act(() =>
      progressStore.set({
        type: 'meeting.progress',
        meetingId: crypto.randomUUID(),
        status: 'processing',
        stage: 'decoding',
        progress: null,
        failureReason: null,
      }),
    );
    expect(container.textContent).toBe('');
  });
});
