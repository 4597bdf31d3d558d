import { useCallback, useEffect, useRef, useState } from 'react';
import type { LiveLine } from '#shared/contracts/live.ts';
import { startLiveTranscript, type LiveSession, type LiveStatus } from './live-transcriber.ts';
import { getAccessToken } from '#web/lib/auth/access-token.ts';

/**
 * The live transcript of the recording in progress, for the 300px panel on /record. Lines and
 * status belong to one session (one recording): anything a stopped session still reports (a line
 * in flight when it was stopped, or a session that finished connecting only after it) is dropped,
 * so a saved recording's lines never come back into the cleared panel or into the next recording.
 */
export function useLiveTranscript() {
  const [lines, setLines] = useState<LiveLine[]>([]);
  const [status, setStatus] = useState<LiveStatus | null>(null);
  const session = useRef<LiveSession | null>(null);
  /** The current session's number; a session's callbacks act only while it is still current. */
  const current = useRef(0);

  const stop = useCallback(() => {
    current.current += 1;
    session.current?.stop();
    session.current = null;
  }, []);

  /** `channels`: 2 when the stream carries a shared tab's audio next to the microphone. */
  const start = useCallback(
    async (stream: MediaStream, meetingId: string, channels = 1) => {
      stop();
      const id = current.current;
      const isCurrent = () => current.current === id;
      setLines([]);
      try {
        const started = await startLiveTranscript({
          stream,
          channels,
          meetingId,
          getToken: getAccessToken,
          // Lines of two sources arrive in the order each recogniser finishes: keep them in time order.
          onLine: (line) => isCurrent() && setLines((all) => [...all, line].sort((a, b) => a.startMs - b.startMs)),
          onStatus: (next) => isCurrent() && setStatus(next),
        });
        // Stopped (saved, or another recording begun) while it was still connecting: it never shows.
        if (isCurrent()) session.current = started;
        else started.stop();
      } catch {
        // The recording goes on without it (an old browser without AudioWorklet, for one).
        if (isCurrent()) setStatus({ state: 'unavailable', reason: 'this browser cannot stream audio for it' });
      }
    },
    [stop],
  );

  /** Saving clears the transcript (spec §9): the session is closed and its lines are gone. */
  const clear = useCallback(() => {
    stop();
    setLines([]);
    setStatus(null);
  }, [stop]);

  useEffect(() => stop, [stop]);
  return { lines, status, start, stop, clear, pause: () => session.current?.pause(), resume: () => session.current?.resume() };
}
