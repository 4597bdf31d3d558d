import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/**
 * The one rate-limit port: every limiter in the server (auth's request limits and sign-in guard,
 * Ask's questions, the live transcript's paused time) is made here, from the factory deps.ts creates
 * once. By default the counts live in this process's memory (rate-limiter-flexible's
 * `RateLimiterMemory`); with REDIS_URL they live in Redis (`RateLimiterRedis`, the same library and
 * calls), so several web processes share them and a brute force spread over them is still counted.
 * So the API is async only, every key is namespaced by its limiter's prefix, and nothing here
 * answers from process state alone.
 */
export type RateLimiters = {
  /** A limiter of `points` per `duration` seconds for each key; its counts are kept under `keyPrefix`, unique per factory. */
  limiter: (spec: RateLimitSpec) => RateLimiter;
};

export type RateLimitSpec = {
  /** Names the limiter's keys in a shared store: two limiters never share one. */
  keyPrefix: string;
  /** What a key may use in one window. */
  points: number;
  /** The window, in seconds, from a key's first use. */
  duration: number;
  /**
   * While a shared store cannot be reached: false (the default) counts in this process meanwhile;
   * true throws `RateLimitStoreDown` instead, for limits against guessing, where a count started
   * again from nothing would let guesses through that the shared count blocks.
   */
  failClosed?: boolean;
};

/** A fail-closed limiter's shared store cannot be reached: its count is unknown. */
export class RateLimitStoreDown extends Error {
  constructor(cause: unknown) {
    super('the rate limits store cannot be reached', { cause });
    this.name = 'RateLimitStoreDown';
  }
}

/** A key's use in the current window. */
export type RateLimitState = {
  consumedPoints: number;
  remainingPoints: number;
  /** Until the window ends and the count starts again. */
  msBeforeNext: number;
};

export type RateLimiter = {
  /** Uses `points` (1 by default): `allowed` false once the key has used more than the limiter's points in this window. */
  consume: (key: string, points?: number) => Promise<RateLimitState & { allowed: boolean }>;
  /** The key's use in this window; undefined when it has none. */
  get: (key: string) => Promise<RateLimitState | undefined>;
  /** Counts `points` against the key without ever refusing (a failure counted, time used). */
  penalty: (key: string, points?: number) => Promise<RateLimitState>;
  /** Forgets the key's use (a success clears its failures). */
  delete: (key: string) => Promise<void>;
};

const stateOf = (res: RateLimiterRes): RateLimitState => ({
  consumedPoints: res.consumedPoints,
  remainingPoints: res.remainingPoints,
  msBeforeNext: res.msBeforeNext,
});

/**
 * The port over one of rate-limiter-flexible's limiters: its rejection (a `RateLimiterRes`) becomes
 * `allowed: false`; a store's failure stays an error, `RateLimitStoreDown` for a fail-closed one.
 */
function adapt(limiter: RateLimiterAbstract, failClosed: boolean): RateLimiter {
  const store = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw failClosed && !(error instanceof RateLimiterRes) ? new RateLimitStoreDown(error) : error;
    }
  };
  return {
    consume: async (key, points = 1) => {
      try {
        return { allowed: true, ...stateOf(await store(() => limiter.consume(key, points))) };
      } catch (error) {
        if (error instanceof RateLimiterRes) return { allowed: false, ...stateOf(error) };
        throw error;
      }
    },
    get: async (key) => {
      const res = await store(() => limiter.get(key));
      return res ? stateOf(res) : undefined;
    },
    penalty: async (key, points = 1) => stateOf(await store(() => limiter.penalty(key, points))),
    delete: async (key) => {
      await store(() => limiter.delete(key));
    },
  };
}

/** A factory that refuses a second limiter under a name: in a shared store the same prefix would mix two limiters' counts. */
function namedOnce(make: (spec: RateLimitSpec) => RateLimiterAbstract): RateLimiters {
  const prefixes = new Set<string>();
  return {
    limiter: (spec) => {
      if (prefixes.has(spec.keyPrefix)) throw new Error(`A rate limiter named ${spec.keyPrefix} already exists`);
      prefixes.add(spec.keyPrefix);
      return adapt(make(spec), spec.failClosed === true);
    },
  };
}

/** Limiters whose counts live in this process (one process holds them all). */
export function createMemoryRateLimiters(): RateLimiters {
  return namedOnce((spec) => new RateLimiterMemory({ keyPrefix: spec.keyPrefix, points: spec.points, duration: spec.duration }));
}

/**
 * Limiters whose counts live in Redis under `<namespace>:<limiter>:<key>`, shared by every process
 * of the installation. While Redis cannot be reached, each process counts in its own memory instead
 * (rate-limiter-flexible's insurance limiter): limits stay enforced, per process, rather than every
 * limited request failing; a fail-closed limiter throws `RateLimitStoreDown` instead. Counts survive a Redis restart only as far as Redis persists them (AOF:
 * docs/deployment.md).
 */
export function createRedisRateLimiters(client: Redis, namespace: string): RateLimiters {
  return namedOnce(
    (spec) =>
      new RateLimiterRedis({
        storeClient: client,
        keyPrefix: `${namespace}:${spec.keyPrefix}`,
        points: spec.points,
        duration: spec.duration,
        rejectIfRedisNotReady: true,
        ...(spec.failClosed ? {} : { insuranceLimiter: new RateLimiterMemory({ keyPrefix: spec.keyPrefix, points: spec.points, duration: spec.duration }) }),
      }),
  );
}
