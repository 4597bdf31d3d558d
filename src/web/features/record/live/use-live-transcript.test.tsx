import { act, cleanup, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LiveLine } from '#shared/contracts/live.ts';
import { TranscriptPanel } from '../components/transcript-panel.tsx';
import type { LiveStatus } from './live-transcriber.ts';
import { useLiveTranscript } from './use-live-transcript.ts';

/** Each live session the page starts: what it reports, whether it was stopped, and when it finishes connecting. */
type FakeSession = { meetingId: string; onLine: (line: LiveLine) => void; onStatus: (status: LiveStatus) => void; stopped: boolean; connect: () => void };
const sessions = vi.hoisted(() => [] as FakeSession[]);

vi.mock('./live-transcriber.ts', () => ({
  startLiveTranscript: (input: { meetingId: string; onLine: FakeSession['onLine']; onStatus: FakeSession['onStatus'] }) =>
    new Promise((resolve) => {
      const session: FakeSession = {
        meetingId: input.meetingId,
        onLine: input.onLine,
        onStatus: input.onStatus,
        stopped: false,
        connect: () => resolve({ pause: () => {}, resume: () => {}, stop: () => (session.stopped = true) }),
      };
      sessions.push(session);
    }),
}));
vi.mock('#web/lib/auth/access-token.ts', () => ({ getAccessToken: async () => 'token-1' }));

afterEach(() => {
  cleanup();
  sessions.length = 0;
});

/** The page's hold on the hook (start, clear), as the record page has it. */
let live: ReturnType<typeof useLiveTranscript>;
function LivePanel() {
  const transcript = useLiveTranscript();
  useEffect(() => {
    live = transcript;
  });
  return (
    <TranscriptPanel
      lines={transcript.lines.map((l) => ({ time: '00:01', speaker: l.speaker, text: l.text, endMs: l.endMs }))}
      mode="recording"
      live={transcript.status}
    />
  );
}

const line = (text: string, startMs: number): LiveLine => ({ startMs, endMs: startMs + 1000, text, speaker: 'You' });
const shown = () => screen.queryAllByRole('listitem').map((li) => li.textContent);
const stream = {} as MediaStream;

describe('the live transcript of one recording at a time', () => {
  it('clears on save, and what a finished recording still reports never reaches the panel or the next recording', async () => {
    render(<LivePanel />);
    await act(async () => {
      void live.start(stream, 'meeting-a');
      sessions[0]!.connect();
    });
    act(() => sessions[0]!.onLine(line('first recording speaking', 0)));
    expect(shown()).toEqual(['00:01You: first recording speaking']);

    // Saved: the panel is cleared and the session closed; a line it had in flight is dropped.
    act(() => live.clear());
    expect(sessions[0]!.stopped).toBe(true);
    act(() => sessions[0]!.onLine(line('late line of the saved recording', 2000)));
    expect(shown()).toEqual([]);

    // The next recording: the old session's late lines and status stay out of it.
    await act(async () => {
      void live.start(stream, 'meeting-b');
      sessions[1]!.connect();
    });
    act(() => sessions[1]!.onStatus({ state: 'listening', speakers: ['You'] }));
    act(() => {
      sessions[0]!.onLine(line('yet another late line', 3000));
      sessions[0]!.onStatus({ state: 'unavailable', reason: 'the connection to the server was lost' });
    });
    expect(screen.getByText(/^Listening…/)).toBeTruthy();
    act(() => sessions[1]!.onLine(line('second recording speaking', 500)));
    expect(shown()).toEqual(['00:01You: second recording speaking']);
  });

  it('a session saved before it finished connecting is closed when it connects, and shows nothing', async () => {
    render(<LivePanel />);
    act(() => void live.start(stream, 'meeting-a'));
    act(() => live.clear());
    await act(async () => sessions[0]!.connect());
    expect(sessions[0]!.stopped).toBe(true);
    act(() => sessions[0]!.onLine(line('heard after save', 0)));
    expect(shown()).toEqual([]);
  });
});
