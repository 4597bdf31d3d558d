import crypto from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { MemoryLocker } from '@tus/server';
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/utils';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Redis } from 'ioredis';
import { failedBestEffort } from './best-effort.ts';

/**
 * The per-upload locks the tus server takes while a request works on an upload (PATCH, HEAD,
 * DELETE), so two requests for one upload never write into it at once. By default they live in
 * this process's memory (tus's `MemoryLocker`), which is enough when one process takes every request.
 * With REDIS_URL they live in Redis, so a retried PATCH that the load balancer sends to another web
 * process waits for the first one there too: a lease (SET NX PX) holding a random token, renewed
 * while held and deleted only by the holder that token names (compare-and-delete). A process that
 * dies holding one loses it when the lease runs out.
 *
 * Both keep tus's rule that a newer request asks the holder to let go (`requestRelease`: the holder's
 * request stops after tus's drain time, its durable bytes kept), and both give up after a time with
 * 423, which upload clients retry, rather than hang.
 */
export type UploadLocker = Locker & {
  /** Stops listening for release requests (the Redis locker's subscriber connection). */
  close: () => Promise<void>;
};

export type UploadLockTimings = {
  /** How long a request waits for the lock before it is answered 423. */
  acquireTimeoutMs: number;
  /** Redis: how long a lease lasts unless renewed (renewed every third of it while held), so how long a dead holder blocks. */
  leaseMs: number;
  /** Redis: how often a waiting request tries again. */
  retryMs: number;
};

/**
 * Longer than a lease plus tus's drain time (3 s), so a request waiting on a process that died
 * still gets the lock once the dead one's lease runs out.
 */
const UPLOAD_LOCK_TIMINGS: UploadLockTimings = { acquireTimeoutMs: 20_000, leaseMs: 10_000, retryMs: 50 };

const refusal = (status: number, message: string) => ({ status_code: status, body: JSON.stringify({ error: { message } }) });

/** The answer to a request that waited its whole time for an upload another request keeps working on. */
const UPLOAD_BUSY = refusal(423, 'Another request is still working on this upload. Try again in a moment: it resumes from the last saved byte.');
/** The answer while the shared lock store (Redis) cannot be reached: no request may write without the lock. */
const UPLOAD_LOCKS_DOWN = refusal(503, 'Uploads are paused for a moment (the server cannot reach Redis). It resumes from the last saved byte.');

/** tus's memory locker (one process), its time-out answered 423 like the Redis locker's. */
export function createMemoryUploadLocker(timings: Pick<UploadLockTimings, 'acquireTimeoutMs'> = UPLOAD_LOCK_TIMINGS): UploadLocker {
  const locker = new MemoryLocker({ acquireLockTimeout: timings.acquireTimeoutMs });
  return {
    newLock: (id) => {
      const lock = locker.newLock(id);
      return {
        lock: async (signal, requestRelease) => {
          try {
            await lock.lock(signal, requestRelease);
          } catch (error) {
            throw error === ERRORS.ERR_LOCK_TIMEOUT ? UPLOAD_BUSY : error;
          }
        },
        unlock: () => lock.unlock(),
      };
    },
    close: async () => {},
  };
}

/** Renews a lease only while it still holds this token. */
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0`;
/** Deletes a lease only while it still holds this token: a holder whose lease ran out never frees another's. */
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`;

/**
 * The Redis locker of one process. `redis` is the installation's connection (leases); a second
 * connection, subscribed to one channel, hears the release requests of every process and passes
 * each to the request of this process that holds that upload's lock, if any. Keys and the channel
 * are under the installation's REDIS_KEY_PREFIX.
 */
export async function createRedisUploadLocker(
  redis: Redis,
  prefix: string,
  log: Logger,
  timings: UploadLockTimings = UPLOAD_LOCK_TIMINGS,
): Promise<UploadLocker> {
  const channel = `${prefix}:upload-lock:release`;
  const keyOf = (id: string) => `${prefix}:upload-lock:${id}`;
  /** This process's holders, by upload id, and how each is asked to let go. */
  const holders = new Map<string, { token: string; requestRelease: RequestRelease }>();
  const subscriber = redis.duplicate({ lazyConnect: true });
  // Its outages are the main connection's too, which logs them; it reconnects and subscribes again by itself.
  subscriber.on('error', () => {});
  subscriber.on('message', (_channel: string, id: string) => {
    const holder = holders.get(id);
    if (holder) void Promise.resolve(holder.requestRelease()).catch((error: unknown) => failedBestEffort('upload-lock', error, log, { upload: id }));
  });
  await subscriber.connect();
  await subscriber.subscribe(channel);

  const jitter = () => timings.retryMs / 2 + Math.random() * timings.retryMs;
  const storeDown = (error: unknown) => {
    log.warn({ err: error }, 'an upload lock could not be taken: Redis cannot be reached');
    return UPLOAD_LOCKS_DOWN;
  };

  const newLock = (id: string): Lock => {
    const key = keyOf(id);
    const token = crypto.randomUUID();
    let renewal: ReturnType<typeof setInterval> | undefined;
    const stopRenewing = () => {
      clearInterval(renewal);
      renewal = undefined;
      if (holders.get(id)?.token === token) holders.delete(id);
    };
    return {
      lock: async (signal, requestRelease) => {
        const deadline = Date.now() + timings.acquireTimeoutMs;
        let askedAt = 0;
        for (;;) {
          if (signal.aborted) throw UPLOAD_BUSY;
          const taken = await redis.set(key, token, 'PX', timings.leaseMs, 'NX').catch((error: unknown) => {
            throw storeDown(error);
          });
          if (taken === 'OK') break;
          // The holder (in whichever process) is asked to let go, and asked again now and then in
          // case the lock changed hands meanwhile; its request stops after tus's drain time.
          if (Date.now() - askedAt >= 1000) {
            askedAt = Date.now();
            await redis.publish(channel, id).catch((error: unknown) => {
              throw storeDown(error);
            });
          }
          if (Date.now() >= deadline) throw UPLOAD_BUSY;
          await sleep(Math.min(jitter(), Math.max(0, deadline - Date.now())), undefined, { signal }).catch(() => undefined);
        }
        holders.set(id, { token, requestRelease });
        renewal = setInterval(() => {
          redis.eval(RENEW, 1, key, token, timings.leaseMs).then(
            (renewed) => {
              if (renewed !== 0 || renewal === undefined) return;
              // The lease ran out (Redis restarted, or this process stalled past it): another request
              // may hold the lock now, so this one stops writing.
              stopRenewing();
              void requestRelease();
            },
            // Redis is down: the lease stands until it runs out; the next renewal tries again.
            (error: unknown) => failedBestEffort('upload-lock', error, log, { upload: id }),
          );
        }, timings.leaseMs / 3);
        renewal.unref();
      },
      unlock: async () => {
        stopRenewing();
        // A release that fails (Redis down) is not the request's failure: the lease runs out by itself.
        await redis.eval(RELEASE, 1, key, token).catch((error: unknown) => failedBestEffort('upload-lock', error, log, { upload: id }));
      },
    };
  };

  return {
    newLock,
    close: async () => {
      if (subscriber.status === 'ready') await subscriber.quit();
      else subscriber.disconnect();
    },
  };
}
