import pg from 'pg';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { z } from 'zod';
import { RealtimeEventSchema } from '#shared/contracts/realtime.ts';
import { failedBestEffort } from '../best-effort.ts';
import type { HubMessage, RealtimeTransport } from './realtime-hub.ts';

const Message = z.union([
  z.object({ userId: z.string(), event: RealtimeEventSchema }),
  z.object({ userId: z.string(), sessionsEnded: z.object({ sessionIds: z.array(z.string()).optional(), except: z.string().optional() }) }),
]);
/** NOTIFY payloads are capped at 8000 bytes; events are a few hundred. */
const MAX_PAYLOAD_BYTES = 7_900;

export type PostgresTransport = RealtimeTransport & { close: () => Promise<void> };

/**
 * Realtime events between processes over PostgreSQL's LISTEN/NOTIFY, on one dedicated connection:
 * a single connection both listens and notifies, so events keep the order they were published in.
 * A lost connection is opened again (events published meanwhile are dropped, as a socket that
 * reconnects also misses them; the API always has the current state).
 */
export async function createPostgresTransport(options: { url: string; channel: string; log: Logger }): Promise<PostgresTransport> {
  const { log, channel } = options;
  let deliver: ((message: HubMessage) => void) | undefined;
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  /** Tries again every second until a connection listens (a database restarting refuses for a while). */
  const reconnect = () => {
    clearTimeout(retry);
    if (closed) return;
    retry = setTimeout(
      () =>
        void connect().catch((error: unknown) => {
          failedBestEffort('realtime-reconnect', error, log);
          reconnect();
        }),
      1_000,
    );
  };

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: options.url });
    next.on('notification', (note) => {
      if (note.channel !== channel || !note.payload) return;
      try {
        const parsed = Message.safeParse(JSON.parse(note.payload));
        if (parsed.success) deliver?.(parsed.data);
      } catch {
        // Not one of ours: someone else notified on the channel.
      }
    });
    next.on('error', (error) => {
      log.warn({ err: error }, 'realtime channel lost its database connection; reconnecting');
      if (client === next) client = undefined;
      void next.end().catch(() => undefined); // the connection is broken already: ending it may fail too
      reconnect();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      void next.end().catch(() => undefined); // never used: its error is the one thrown
      throw error;
    }
    client = next;
  };
  await connect();

  return {
    send: (message) => {
      const payload = JSON.stringify(message);
      if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES)
        return log.error({ type: 'event' in message ? message.event.type : 'sessions ended' }, 'realtime message too large to send');
      if (!client) return log.warn('realtime event dropped: the database connection is being reopened');
      client.query('select pg_notify($1, $2)', [channel, payload]).catch((error: unknown) => failedBestEffort('realtime-notify', error, log));
    },
    onMessage: (handler) => {
      deliver = handler;
    },
    close: async () => {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined); // closing at shutdown: a connection already broken has nothing left to end
    },
  };
}
