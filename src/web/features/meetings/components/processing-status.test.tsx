import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MeetingSummary } from '#shared/contracts/meetings.ts';
import { ProcessingStatus, stageText } from './processing-status.tsx';
import { progressStore } from '#web/lib/realtime/realtime-store.ts';

vi.mock('#web/lib/supabase.ts', () => ({
  loadSupabase: async () => ({ auth: { getSession: async () => ({ data: { session: { access_token: 'token-1' } } }) } }),
}));

afterEach(() => {
  cleanup();
  progressStore.clear();
  vi.unstubAllGlobals();
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

  it('shows why Retry was refused (the plan’s hours used up) beside the button, with the way to Billing', async () => {
    const message =
      'Your Free plan includes 5 transcription hours a month and you have used 5.5 this month, so nothing more can be recorded, uploaded or imported until January 1. Upgrade to Pro in Settings › Billing for 30 hours a month.';
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
        calls.push(`${init.method ?? 'GET'} ${String(input)}`);
        return new Response(JSON.stringify({ error: { code: 'PLAN_LIMIT', message, details: { plan: 'free' } } }), {
          status: 403,
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    render(
      <MemoryRouter>
        <QueryClientProvider client={new QueryClient()}>
          <ProcessingStatus meeting={meeting({ status: 'failed', failureReason: 'The file contains no audio.' })} />
        </QueryClientProvider>
      </MemoryRouter>,
    );
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    });
    expect(await screen.findByText(message)).toBeTruthy();
    expect(calls).toEqual([`POST /api/v1/meetings/${MEETING_ID}/retry`]);
    expect(screen.getByRole('link', { name: 'Open Settings › Billing' }).getAttribute('href')).toBe('/settings?tab=billing');
    expect(screen.getByRole('alert').textContent).toContain('The transcript could not be made: The file contains no audio.');
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
