import crypto from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { testRedisUrl } from '#tests/support/redis-server.ts';
import { uploadLockerContract } from '#tests/support/upload-locker-contract.ts';
import { createMemoryUploadLocker, createRedisUploadLocker, type UploadLocker, type UploadLockTimings } from './upload-locks.ts';

// The upload locks tus takes, in memory (one process) and in a real Redis (the run's own:
// tests/support/redis-server.ts), where each "process" is a locker on a connection of its own.

const timings: UploadLockTimings = { acquireTimeoutMs: 400, leaseMs: 300, retryMs: 10 };
const log = pino({ level: 'silent' });
const url = testRedisUrl();
const connections: Redis[] = [];
const lockers: UploadLocker[] = [];

const connect = async () => {
  const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  redis.on('error', () => {}); // a connection cut on purpose is what one test is about
  connections.push(redis);
  await redis.connect();
  return redis;
};
/** One process's locker of the installation `prefix`, on its own connection. */
const processOf = async (prefix: string, redis?: Redis) => {
  const locker = await createRedisUploadLocker(redis ?? (await connect()), prefix, log, timings);
  lockers.push(locker);
  return locker;
};
const installation = () => `test-${crypto.randomUUID()}`;
const uploadId = () => crypto.randomBytes(16).toString('hex');
const live = () => new AbortController().signal;

afterAll(async () => {
  await Promise.all(lockers.map((l) => l.close()));
  for (const c of connections) c.disconnect();
});

describe('the memory upload locker', () => {
  uploadLockerContract(async () => {
    const locker = createMemoryUploadLocker(timings);
    return { a: locker, b: locker };
  });
});

describe('the Redis upload locker', () => {
  uploadLockerContract(async () => {
    const prefix = installation();
    return { a: await processOf(prefix), b: await processOf(prefix) };
  });

  it('keeps a lease while it is held, past the lease’s own length', async () => {
    const redis = await connect();
    const prefix = installation();
    const id = uploadId();
    const held = (await processOf(prefix, redis)).newLock(id);
    await held.lock(live(), () => {});
    await sleep(timings.leaseMs * 3);
    expect(await redis.pttl(`${prefix}:upload-lock:${id}`)).toBeGreaterThan(0);
    await held.unlock();
    expect(await redis.exists(`${prefix}:upload-lock:${id}`)).toBe(0);
  });

  it('frees the lock of a process that died holding it once its lease runs out', async () => {
    const prefix = installation();
    const id = uploadId();
    const dying = await connect();
    await (await processOf(prefix, dying)).newLock(id).lock(live(), () => {});
    dying.disconnect(); // no renewals, no unlock: as a kill -9 leaves it
    const next = (await processOf(prefix)).newLock(id);
    await next.lock(live(), () => {});
    await next.unlock();
  });

  it('is released only by its holder: a holder whose lease was lost stops, and its unlock frees nothing of the next one’s', async () => {
    const redis = await connect();
    const prefix = installation();
    const id = uploadId();
    const key = `${prefix}:upload-lock:${id}`;
    let told!: () => void;
    const stopped = new Promise<void>((resolve) => (told = resolve));
    const first = (await processOf(prefix)).newLock(id);
    await first.lock(live(), () => told());
    await redis.del(key); // the lease lost (Redis restarted without it)
    await stopped; // its renewal found the lease gone and asked its request to stop
    const second = (await processOf(prefix)).newLock(id);
    await second.lock(live(), () => {});
    const secondToken = await redis.get(key);
    await first.unlock();
    expect(await redis.get(key)).toBe(secondToken);
    await second.unlock();
    expect(await redis.exists(key)).toBe(0);
  });

  it('keeps two installations on one Redis apart', async () => {
    const id = uploadId();
    const ours = (await processOf(installation())).newLock(id);
    const theirs = (await processOf(installation())).newLock(id);
    await ours.lock(live(), () => {});
    await theirs.lock(live(), () => {});
    await Promise.all([ours.unlock(), theirs.unlock()]);
  });

  it('answers 503, at once, while Redis cannot be reached, and an unlock then does not fail the request', async () => {
    const redis = await connect();
    const locker = await processOf(installation(), redis);
    const held = locker.newLock(uploadId());
    await held.lock(live(), () => {});
    redis.disconnect();
    await expect(locker.newLock(uploadId()).lock(live(), () => {})).rejects.toMatchObject({ status_code: 503 });
    await held.unlock();
  });
});
