import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { LIVE_CLOSE, LIVE_PATH, LiveClientMessageSchema, type LiveAuthMessage, type LiveServerMessage } from '#shared/contracts/live.ts';
import type { RealtimeHub } from '#server/lib/realtime/realtime-hub.ts';
import type { AuthContext } from '../../auth/auth-context.ts';
import { authenticateToken } from '../../auth/authenticate.ts';
import type { MeetingsService } from '../../meetings/meetings.service.ts';
import { startLiveSession, type LiveSession } from './live-session.ts';
import { isStreamingAvailable } from './streaming-recognizer.ts';

/** Live sessions one person may have at once (a recording tab and a spare). */
export const MAX_SESSIONS_PER_USER = 2;
/** Recogniser processes on this server at once (one per capture source of each live session). */
export const MAX_RECOGNIZERS = 8;
const AUTH_TIMEOUT_MS = 10_000;
/** No audio for this long while recording (a stalled tab) ends the session. */
const IDLE_TIMEOUT_MS = 2 * 60_000;
/** A paused recording keeps its session this long; the browser reconnects when it resumes later. */
const PAUSED_TIMEOUT_MS = 30 * 60_000;
/** The browser answers pings by itself; one that misses a round has gone (closed lid, lost network). */
const HEARTBEAT_MS = 30_000;
/** The person's name on their microphone's lines when a shared tab is recorded too. */
const OWN_VOICE = 'You';

const send = (socket: WebSocket, message: LiveServerMessage) => {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
};

/**
 * What each channel's lines are called: a single microphone may hear a whole room ("Speaker 1", as
 * the transcript starts); with a shared tab, the microphone is the person and the tab is the call.
 */
const speakersOf = (sources: string[]) => (sources.length > 1 ? [OWN_VOICE, ...sources.slice(1)] : ['Speaker 1']);

/**
 * GET /realtime/live (WebSocket): recognised lines of the recording in progress, streamed by the
 * browser as PCM. Nothing from here is stored: the meeting's transcription job makes the transcript.
 */
export function registerLiveRoutes(
  app: FastifyInstance,
  deps: { meetings: MeetingsService; auth: AuthContext; hub: RealtimeHub; log: FastifyBaseLogger },
): void {
  const sessionsByUser = new Map<string, number>();
  let recognizers = 0;

  app.get(LIVE_PATH, { websocket: true }, (socket) => {
    let session: LiveSession | undefined;
    /** Released when the socket closes: this socket's count against its owner's and the server's limits. */
    let release: (() => void) | undefined;
    /** Stops watching the sign-in session this socket was opened with (its end closes the socket). */
    let unwatch: (() => void) | undefined;
    let state: 'waiting' | 'authenticating' | 'streaming' | 'closed' = 'waiting';
    let channels = 1;
    let idle: NodeJS.Timeout | undefined;
    let alive = true;
    const close = (code: number, reason: string) => {
      if (socket.readyState === socket.OPEN) socket.close(code, reason);
    };
    const waitForAudio = (paused: boolean) => {
      clearTimeout(idle);
      idle = paused
        ? setTimeout(() => close(LIVE_CLOSE.idle, 'Paused for half an hour'), PAUSED_TIMEOUT_MS)
        : setTimeout(() => close(LIVE_CLOSE.idle, 'No audio for two minutes'), IDLE_TIMEOUT_MS);
    };
    const authTimer = setTimeout(() => close(LIVE_CLOSE.unauthenticated, 'Authenticate first'), AUTH_TIMEOUT_MS);
    socket.on('pong', () => (alive = true));
    const heartbeat = setInterval(() => {
      if (!alive) return socket.terminate();
      alive = false;
      socket.ping();
    }, HEARTBEAT_MS);

    const authenticate = async (message: Required<LiveAuthMessage>) => {
      state = 'authenticating';
      const caller = await authenticateToken(deps.auth, message.accessToken).catch(() => undefined);
      if (!caller) return close(LIVE_CLOSE.unauthenticated, 'Invalid or expired access token');
      if (state !== 'authenticating') return; // the browser left meanwhile
      unwatch = deps.hub.watchSession(caller.user.id, caller.session.id, () => close(LIVE_CLOSE.unauthenticated, 'Session ended'));
      const meeting = await deps.meetings.recording(caller.user.id, message.meetingId);
      if (!meeting) return close(LIVE_CLOSE.notFound, 'No meeting of yours is recording with this id');
      const speakers = speakersOf(meeting.audioSources);
      if (message.channels !== speakers.length) return close(LIVE_CLOSE.badMessage, `This recording has ${speakers.length} audio channel(s)`);
      if (state !== 'authenticating') return; // the browser left meanwhile
      const userId = caller.user.id;
      if ((sessionsByUser.get(userId) ?? 0) >= MAX_SESSIONS_PER_USER) return close(LIVE_CLOSE.busy, 'Too many live transcripts at once');
      if (recognizers + speakers.length > MAX_RECOGNIZERS) return close(LIVE_CLOSE.busy, 'The server is busy');
      if (!isStreamingAvailable()) {
        send(socket, { type: 'error', message: 'Live transcription is not available on this server (pocketsphinx is not installed).' });
        return close(LIVE_CLOSE.unavailable, 'Live transcription unavailable');
      }
      sessionsByUser.set(userId, (sessionsByUser.get(userId) ?? 0) + 1);
      recognizers += speakers.length;
      release = () => {
        recognizers -= speakers.length;
        const left = (sessionsByUser.get(userId) ?? 1) - 1;
        if (left > 0) sessionsByUser.set(userId, left);
        else sessionsByUser.delete(userId);
      };
      const started = await startLiveSession({
        speakers,
        offsetMs: message.offsetMs,
        onLine: (line) => send(socket, { type: 'line', line }),
        onFailure: (reason) => {
          send(socket, {
            type: 'error',
            message:
              reason === 'overloaded'
                ? 'The live transcript fell too far behind and stopped; the recording itself is not affected.'
                : 'The live transcript stopped; the recording itself is not affected.',
          });
          close(reason === 'overloaded' ? LIVE_CLOSE.busy : 1011, 'Recogniser stopped');
        },
      });
      if (state !== 'authenticating') return started.kill(); // the browser left while it started
      session = started;
      channels = speakers.length;
      clearTimeout(authTimer);
      waitForAudio(false);
      state = 'streaming';
      send(socket, { type: 'ready', speakers });
    };

    socket.on('message', (data, isBinary) => {
      const raw = Buffer.isBuffer(data) ? data : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]);
      if (state === 'streaming' && session && isBinary) {
        if (raw.length % (2 * channels) !== 0) return close(LIVE_CLOSE.badMessage, 'Audio is 16-bit PCM, channels interleaved');
        waitForAudio(false);
        return session.write(raw);
      }
      if (isBinary) {
        // Audio sent before "ready" is dropped; audio as the first message is a protocol error.
        if (state === 'waiting') close(LIVE_CLOSE.badMessage, 'The first message authenticates');
        return;
      }
      let message;
      try {
        message = LiveClientMessageSchema.parse(JSON.parse(raw.toString('utf8')));
      } catch {
        return close(LIVE_CLOSE.badMessage, 'Malformed message');
      }
      if (message.type === 'auth') {
        if (state !== 'waiting') return close(LIVE_CLOSE.badMessage, 'Already authenticated');
        void authenticate(message).catch((error: unknown) => {
          deps.log.warn({ err: error }, 'live transcription could not start');
          close(1011, 'Live transcription could not start');
        });
      } else if (state === 'waiting') {
        close(LIVE_CLOSE.badMessage, 'The first message authenticates');
      } else if (session) {
        session.pause();
        waitForAudio(true);
      }
    });

    socket.on('close', () => {
      clearTimeout(authTimer);
      clearTimeout(idle);
      clearInterval(heartbeat);
      state = 'closed';
      release?.();
      unwatch?.();
      // The browser has gone: its last words have nowhere to go, so no need to wait for them.
      session?.kill();
    });
  });
}
