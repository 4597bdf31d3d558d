import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { REALTIME_CLOSE_INSUFFICIENT_AAL, REALTIME_PATH, RealtimeClientMessageSchema, type RealtimeServerMessage } from '#shared/contracts/realtime.ts';
import type { AuthContext } from '../auth/auth-context.ts';
import { authenticateToken, sessionStillOpen } from '../auth/authenticate.ts';
import { GoTrueError } from '../auth/gotrue-error.ts';
import { failedBestEffort } from '#server/lib/best-effort.ts';
import type { RealtimeHub } from '#server/lib/realtime/realtime-hub.ts';

/** How long a socket may stay open without authenticating. */
export const AUTH_TIMEOUT_MS = 10_000;
const MAX_MESSAGE_BYTES = 16 * 1024;

const send = (socket: WebSocket, message: RealtimeServerMessage) => {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
};

/**
 * GET /realtime (WebSocket): authenticate with the first message, then receive that person's events.
 * Close codes: 4401 not authenticated (bad, expired or missing token) or the session it was opened
 * with has ended (signed out, here or elsewhere: no more events for a signed-out browser), 4403 the
 * session still owes its MFA challenge (a refreshed token will not do), 4400 malformed message.
 */
export function registerRealtimeRoutes(app: FastifyInstance, deps: { auth: AuthContext; hub: RealtimeHub }): void {
  app.get(REALTIME_PATH, { websocket: true }, (socket) => {
    let unsubscribe: (() => void) | undefined;
    let unwatch: (() => void) | undefined;
    let authenticating = false;
    const authTimer = setTimeout(() => socket.close(4401, 'Authenticate first'), AUTH_TIMEOUT_MS);

    socket.on('message', async (data, isBinary) => {
      const raw = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
      if (isBinary || raw.length > MAX_MESSAGE_BYTES) return socket.close(4400, 'Messages are small JSON texts');
      let parsed;
      try {
        parsed = RealtimeClientMessageSchema.safeParse(JSON.parse(raw.toString('utf8')));
      } catch {
        parsed = undefined; // not JSON: closed as malformed just below
      }
      if (!parsed?.success) return socket.close(4400, 'Malformed message');
      const message = parsed.data;
      if (message.type === 'ping') return send(socket, { type: 'pong' });
      if (unsubscribe || authenticating) return; // one subscription per socket; a refreshed token needs no new one
      authenticating = true;
      try {
        const { user, session } = await authenticateToken(deps.auth, message.accessToken);
        clearTimeout(authTimer);
        if (socket.readyState !== socket.OPEN) return;
        unsubscribe = deps.hub.subscribe(user.id, (event) => send(socket, event));
        unwatch = deps.hub.watchSession(user.id, session.id, () => socket.close(4401, 'Session ended'));
        if (!(await sessionStillOpen(deps.auth, session.id))) return socket.close(4401, 'Session ended');
        send(socket, { type: 'ready', userId: user.id });
      } catch (error) {
        if (error instanceof GoTrueError && error.code === 'insufficient_aal')
          return socket.close(REALTIME_CLOSE_INSUFFICIENT_AAL, 'Two-factor verification required');
        // The browser renews its token and opens the socket again; a failure that was not the token's is counted too.
        if (!(error instanceof GoTrueError)) failedBestEffort('socket-auth', error, app.log);
        socket.close(4401, 'Invalid or expired access token');
      }
    });
    socket.on('close', () => {
      clearTimeout(authTimer);
      unsubscribe?.();
      unwatch?.();
    });
  });
}
