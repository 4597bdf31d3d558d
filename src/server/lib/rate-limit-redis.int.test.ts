import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimiterContract } from '#tests/support/rate-limit-contract.ts';
import { testRedisUrl } from '#tests/support/redis-server.ts';
import { createReplayGuard } from './oauth/oauth-client.ts';
import { createRedisRateLimiters, RateLimitStoreDown } from './rate-limit.ts';

// The rate-limit port's Redis adapter, against a real Redis (the run's own: tests/support/redis-server.ts).

const url = testRedisUrl();
const clients: Redis[] = [];
const client = (target = url) => {
  const redis = new Redis(target, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
  redis.on('error', () => {}); // a refused connection is what one test is about; its commands fail and say so
  clients.push(redis);
  return redis;
};
const ready = async (redis: Redis) => {
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
  return redis;
};
const shared = client();
const namespace = () => `test-${crypto.randomUUID()}`;

afterAll(async () => {
  await Promise.all(clients.map((c) => c.quit().catch(() => c.disconnect())));
});

describe('the Redis rate limiters', () => {
  beforeAll(() => ready(shared));
  rateLimiterContract(() => createRedisRateLimiters(shared, namespace()));

  it('share one count between processes of the installation, and keep other installations’ apart', async () => {
    const installation = namespace();
    const webA = createRedisRateLimiters(await ready(client()), installation).limiter({ keyPrefix: 'signIn', points: 3, duration: 60 });
    const webB = createRedisRateLimiters(await ready(client()), installation).limiter({ keyPrefix: 'signIn', points: 3, duration: 60 });
    const other = createRedisRateLimiters(shared, namespace()).limiter({ keyPrefix: 'signIn', points: 3, duration: 60 });
    expect((await webA.consume('192.0.2.7')).allowed).toBe(true);
    expect((await webB.consume('192.0.2.7')).allowed).toBe(true);
    expect((await webA.consume('192.0.2.7')).allowed).toBe(true);
    // The fourth attempt, on whichever process it lands, is refused.
    expect((await webB.consume('192.0.2.7')).allowed).toBe(false);
    expect((await other.consume('192.0.2.7')).allowed).toBe(true);
  });

  it('start a key’s count again once its window has passed', async () => {
    const limiter = createRedisRateLimiters(shared, namespace()).limiter({ keyPrefix: 'window', points: 1, duration: 1 });
    expect((await limiter.consume('ada')).allowed).toBe(true);
    const refused = await limiter.consume('ada');
    expect(refused.allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, refused.msBeforeNext + 50));
    expect((await limiter.consume('ada')).allowed).toBe(true);
  });

  it('keep limiting, in this process, while Redis cannot be reached', async () => {
    const closed = 'redis://127.0.0.1:1';
    const limiter = createRedisRateLimiters(client(closed), namespace()).limiter({ keyPrefix: 'outage', points: 2, duration: 60 });
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push((await limiter.consume('ada')).allowed);
    expect(answers).toEqual([true, true, false]);
  });

  it('a fail-closed limiter says its store is down rather than count in this process', async () => {
    const limiters = createRedisRateLimiters(client('redis://127.0.0.1:1'), namespace());
    const limiter = limiters.limiter({ keyPrefix: 'guesses', points: 2, duration: 60, failClosed: true });
    await expect(limiter.consume('ada')).rejects.toBeInstanceOf(RateLimitStoreDown);
    await expect(limiter.get('ada')).rejects.toBeInstanceOf(RateLimitStoreDown);
    // Once Redis answers, the same limiter counts there.
    const live = createRedisRateLimiters(await ready(client()), namespace()).limiter({ keyPrefix: 'guesses', points: 1, duration: 60, failClosed: true });
    expect((await live.consume('ada')).allowed).toBe(true);
    expect((await live.consume('ada')).allowed).toBe(false);
  });

  it('remember a finished sign-in for every web process: its state is refused on all of them, and none finishes while Redis is down', async () => {
    const installation = namespace();
    const webA = createReplayGuard(createRedisRateLimiters(await ready(client()), installation), 'google');
    const webB = createReplayGuard(createRedisRateLimiters(await ready(client()), installation), 'google');
    expect(await webA.claim('nonce-1')).toBe(true);
    expect(await webB.claim('nonce-1')).toBe(false);
    expect(await webA.claim('nonce-1')).toBe(false);
    expect(await webB.claim('nonce-2')).toBe(true);
    const down = createReplayGuard(createRedisRateLimiters(client('redis://127.0.0.1:1'), installation), 'google');
    await expect(down.claim('nonce-3')).rejects.toBeInstanceOf(RateLimitStoreDown);
  });
});
