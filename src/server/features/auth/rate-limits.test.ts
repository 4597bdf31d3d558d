import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiters, createRedisRateLimiters } from '#server/lib/rate-limit.ts';
import { GoTrueError } from './gotrue-error.ts';
import { createRateLimits, SIGN_IN_LIMITS, signInDelayMs } from './rate-limits.ts';

// The sign-in guard on its own (the HTTP behaviour is in sign-in-limits.int.test.ts): how long it
// slows an email down, and that one address failing over many emails is blocked.

function guard() {
  const slept: number[] = [];
  const limits = createRateLimits({ limiters: createMemoryRateLimiters(), enabled: true, emailsPerHour: 30, sleep: async (ms) => void slept.push(ms) });
  return { signIn: limits.signIn, slept };
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'passed',
    (error: unknown) => (error instanceof GoTrueError ? `${error.status} ${error.code}` : 'other'),
  );

describe('the password sign-in guard', () => {
  it('slows an email down from its sixth recent failure, 250 ms more each, at most 3 s', () => {
    expect([0, 5, 6, 7, 12, 17, 100].map(signInDelayMs)).toEqual([0, 0, 250, 500, 1750, 3000, 3000]);
  });

  it('failures from many addresses slow the next attempt on that email (from anywhere) but never refuse it', async () => {
    const { signIn, slept } = guard();
    for (let i = 0; i < 30; i++) await signIn.failed('ada@example.com', `198.51.100.${i}`);
    expect(await refusal(signIn.before('ada@example.com', '203.0.113.1'))).toBe('passed');
    expect(slept).toEqual([3000]);
    expect(await refusal(signIn.before('bob@example.com', '203.0.113.1'))).toBe('passed');
    expect(slept).toEqual([3000]);
  });

  it(`blocks an address after ${SIGN_IN_LIMITS.failuresPerIp.points} failures over any emails, and only that address`, async () => {
    const { signIn } = guard();
    for (let i = 0; i < SIGN_IN_LIMITS.failuresPerIp.points; i++) await signIn.failed(`user-${i}@example.com`, '192.0.2.1');
    expect(await refusal(signIn.before('new@example.com', '192.0.2.1'))).toBe('429 over_request_rate_limit');
    expect(await refusal(signIn.before('new@example.com', '192.0.2.2'))).toBe('passed');
  });

  it('does nothing when rate limits are off', async () => {
    const slept: number[] = [];
    const { signIn } = createRateLimits({ limiters: createMemoryRateLimiters(), enabled: false, emailsPerHour: 30, sleep: async (ms) => void slept.push(ms) });
    for (let i = 0; i < 200; i++) await signIn.failed('ada@example.com', '192.0.2.1');
    expect(await refusal(signIn.before('ada@example.com', '192.0.2.1'))).toBe('passed');
    expect(slept).toEqual([]);
  });

  it('refuses password attempts while Redis, which holds the blocks, cannot be reached', async () => {
    // Nothing listens on port 1: every command fails as in an outage. A count kept in this process
    // meanwhile would start from nothing and let a blocked guesser through.
    const redis = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    redis.on('error', () => {}); // refused connections are the point of this test
    try {
      const limits = createRateLimits({ limiters: createRedisRateLimiters(redis, 'outage'), enabled: true, emailsPerHour: 30, sleep: async () => {} });
      expect(await refusal(limits.signIn.before('ada@example.com', '203.0.113.1'))).toBe('429 over_request_rate_limit');
      expect(await refusal(limits.signIn.failed('ada@example.com', '203.0.113.1'))).toBe('429 over_request_rate_limit');
      // Limits that are not about guessing keep counting in this process meanwhile.
      expect(await refusal(limits.consume('token', '203.0.113.1'))).toBe('passed');
    } finally {
      redis.disconnect();
    }
  });
});
