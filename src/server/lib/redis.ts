import { Redis } from 'ioredis';
import type { FastifyBaseLogger as Logger } from 'fastify';

/** How long a start waits for Redis before it gives up and says why. */
const CONNECT_TIMEOUT_MS = 10_000;

/** The address to name in messages: never the password a REDIS_URL may carry. */
export const redisAddressOf = (url: string): string => {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
};

/**
 * The installation's Redis (REDIS_URL), connected before the server serves: a start that cannot
 * reach it fails with the address and the reason rather than serving with counts no other process
 * sees. Afterwards a lost connection is retried in the background and logged once per outage;
 * commands meanwhile fail at once (no offline queue), so callers fall back instead of hanging.
 */
export async function connectRedis(url: string, log: Logger): Promise<Redis> {
  const address = redisAddressOf(url);
  const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: CONNECT_TIMEOUT_MS });
  let down = false;
  let started = false;
  let lastError: Error | undefined;
  redis.on('error', (error: Error) => {
    lastError = error;
    if (down || !started) return;
    down = true;
    log.warn({ redis: address, reason: error.message }, 'Redis cannot be reached: rate limits are counted per process until it is back');
  });
  redis.on('ready', () => {
    if (down) log.info({ redis: address }, 'Redis is back');
    down = false;
  });
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    // ioredis rejects with "Connection is closed."; the cause came with its error event.
    const reason = lastError?.message ?? (error instanceof Error ? error.message : String(error));
    throw new Error(`REDIS_URL: Redis at ${address} could not be reached (${reason})`, { cause: error });
  }
  started = true;
  return redis;
}
