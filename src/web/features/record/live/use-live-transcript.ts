import { useCallback, useEffect, useRef, useState } from 'react';
import type { LiveLine } from '#shared/contracts/live.ts';
import { startLiveTranscript, type LiveSession, type LiveStatus } from './live-transcriber.ts';
import { getAccessToken } from '#web/lib/auth/access-token.ts';

/** The live transcript of the recording in progress, for the 300px panel on /record. */
export function useLiveTranscript() {
  const [lines, setLines] = useState<LiveLine[]>([]);
  const [status, setStatus] = useState<LiveStatus | null>(null);
  const session = useRef<LiveSession | null>(null);

  /** `channels`: 2 when the stream carries a shared tab's audio next to the microphone. */
  const start = useCallback(async (stream: MediaStream, meetingId: string, channels = 1) => {
    setLines([]);
    try {
      session.current = await startLiveTranscript({
        stream,
        channels,
        meetingId,
        getToken: getAccessToken,
        // Lines of two sources arrive in the order each recogniser finishes: keep them in time order.
        onLine: (line) => setLines((all) => [...all, line].sort((a, b) => a.startMs - b.startMs)),
        onStatus: setStatus,
      });
    } catch {
      // The recording goes on without it (an old browser without AudioWorklet, for one).
      setStatus({ state: 'unavailable', reason: 'this browser cannot stream audio for it' });
    }
  }, []);
  const stop = useCallback(() => {
    session.current?.stop();
    session.current = null;
  }, []);
  useEffect(() => stop, [stop]);
  return { lines, status, start, stop, pause: () => session.current?.pause(), resume: () => session.current?.resume() };
}
