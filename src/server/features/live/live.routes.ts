import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { LIVE_CLOSE, LIVE_PATH, LIVE_SAMPLE_RATE, LiveClientMessageSchema, type LiveServerMessage } from '#shared/contracts/live.ts';
import type { Db } from '#server/db/create-db.ts';
import type { AuthContext } from '../auth/auth-context.ts';
import { authenticateToken } from '../auth/authenticate.ts';
import { isStreamingAvailable, startStreamingRecognizer, type StreamingRecognizer } from './streaming-recognizer.ts';

/** Live sessions one person may have at once (a recording tab and a spare). */
export const MAX_SESSIONS_PER_USER = 2;
/** Audio not yet taken by the recogniser beyond this (30 s) means it cannot keep up: the session ends. */
const MAX_BACKLOG_BYTES = LIVE_SAMPLE_RATE * 2 * 30;
const AUTH_TIMEOUT_MS = 10_000;
/** No audio for this long (a closed laptop lid, a stalled tab) ends the session. */
const IDLE_TIMEOUT_MS = 120_000;
/** Pauses are not streamed; while paused the socket stays, so the idle limit is generous. */

const send = (socket: WebSocket, message: LiveServerMessage) => {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
};

/**
 * GET /realtime/live (WebSocket): recognised lines of the recording in progress, streamed by the
 * browser as PCM. Nothing from here is stored: the meeting's transcription job makes the transcript.
 */
export function registerLiveRoutes(app: FastifyInstance, deps: { db: Db; auth: AuthContext; log: FastifyBaseLogger }): void {
  const sessions = new Map<string, number>();

  app.get(LIVE_PATH, { websocket: true }, (socket) => {
    let recognizer: StreamingRecognizer | undefined;
    /** Set once this socket counts against its owner's session limit. */
    let userId: string | undefined;
    let state: 'waiting' | 'authenticating' | 'streaming' | 'closed' = 'waiting';
    let backlog = 0;
    let idle: NodeJS.Timeout | undefined;
    const close = (code: number, reason: string) => {
      if (socket.readyState === socket.OPEN) socket.close(code, reason);
    };
    const touch = () => {
      clearTimeout(idle);
      idle = setTimeout(() => close(1000, 'No audio for two minutes'), IDLE_TIMEOUT_MS);
    };
    const authTimer = setTimeout(() => close(LIVE_CLOSE.unauthenticated, 'Authenticate first'), AUTH_TIMEOUT_MS);

    const authenticate = async (raw: Buffer) => {
      state = 'authenticating';
      let message;
      try {
        message = LiveClientMessageSchema.parse(JSON.parse(raw.toString('utf8')));
      } catch {
        return close(LIVE_CLOSE.badMessage, 'The first message authenticates');
      }
      const caller = await authenticateToken(deps.auth, message.accessToken).catch(() => undefined);
      if (!caller) return close(LIVE_CLOSE.unauthenticated, 'Invalid or expired access token');
      const meeting = await deps.db
        .selectFrom('meetings')
        .select('status')
        .where('id', '=', message.meetingId)
        .where('owner_id', '=', caller.user.id)
        .executeTakeFirst();
      if (!meeting || meeting.status !== 'recording') return close(LIVE_CLOSE.notFound, 'No meeting of yours is recording with this id');
      if ((sessions.get(caller.user.id) ?? 0) >= MAX_SESSIONS_PER_USER) return close(LIVE_CLOSE.busy, 'Too many live transcripts at once');
      if (!isStreamingAvailable()) {
        send(socket, { type: 'error', message: 'Live transcription is not available on this server (pocketsphinx is not installed).' });
        return close(LIVE_CLOSE.unavailable, 'Live transcription unavailable');
      }
      if (state !== 'authenticating' || socket.readyState !== socket.OPEN) return;
      userId = caller.user.id;
      sessions.set(userId, (sessions.get(userId) ?? 0) + 1);
      const started = await startStreamingRecognizer((segment) => {
        send(socket, { type: 'line', line: { startMs: segment.startMs, endMs: segment.endMs, text: segment.text, speaker: 'Speaker 1' } });
      });
      if (state !== 'authenticating') return started.kill(); // the browser left while it started
      recognizer = started;
      recognizer.onDrain(() => (backlog = 0));
      clearTimeout(authTimer);
      touch();
      state = 'streaming';
      send(socket, { type: 'ready' });
    };

    socket.on('message', (data, isBinary) => {
      const raw = Buffer.isBuffer(data) ? data : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]);
      if (state === 'waiting') {
        if (isBinary) return close(LIVE_CLOSE.badMessage, 'The first message authenticates');
        void authenticate(raw).catch((error: unknown) => {
          deps.log.warn({ err: error }, 'live transcription could not start');
          close(1011, 'Live transcription could not start');
        });
        return;
      }
      if (state !== 'streaming' || !recognizer) return; // audio sent before "ready" is dropped
      if (!isBinary || raw.length % 2 !== 0) return close(LIVE_CLOSE.badMessage, 'Audio is 16-bit PCM');
      touch();
      if (!recognizer.write(raw)) {
        backlog += raw.length;
        if (backlog > MAX_BACKLOG_BYTES) {
          send(socket, { type: 'error', message: 'The live transcript fell too far behind and stopped; the recording itself is not affected.' });
          close(LIVE_CLOSE.busy, 'Recogniser overloaded');
        }
      }
    });

    socket.on('close', () => {
      clearTimeout(authTimer);
      clearTimeout(idle);
      state = 'closed';
      if (userId) {
        const left = (sessions.get(userId) ?? 1) - 1;
        if (left > 0) sessions.set(userId, left);
        else sessions.delete(userId);
      }
      // The browser has gone: its last words have nowhere to go, so no need to wait for them.
      recognizer?.kill();
    });
  });
}
