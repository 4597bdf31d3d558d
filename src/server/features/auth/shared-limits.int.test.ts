import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '#tests/support/build-test-app.ts';
import { testRedisUrl } from '#tests/support/redis-server.ts';

// Two web processes of one installation (REDIS_URL, one key prefix) count sign-in failures together:
// a brute force spread over them is blocked as if it met one. A third installation with its own
// prefix on the same Redis counts apart.

let webA: TestApp;
let webB: TestApp;
let elsewhere: TestApp;
beforeAll(async () => {
  const installation = `test-${crypto.randomUUID()}`;
  const env = (prefix: string) => ({ AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'true', REDIS_URL: testRedisUrl(), REDIS_KEY_PREFIX: prefix });
  [webA, webB, elsewhere] = await Promise.all([
    buildTestApp({ env: env(installation) }),
    buildTestApp({ env: env(installation) }),
    buildTestApp({ env: env(`test-${crypto.randomUUID()}`) }),
  ]);
});
afterAll(() => Promise.all([webA.close(), webB.close(), elsewhere.close()]));

const signIn = (t: TestApp, email: string) =>
  t.app.inject({ method: 'POST', url: '/auth/v1/token?grant_type=password', remoteAddress: '192.0.2.40', payload: { email, password: 'a-wrong-guess' } });

describe('sign-in limits with REDIS_URL', () => {
  it('block an address after 10 failures spread over two processes, on both', async () => {
    const email = 'target@example.com';
    for (let i = 0; i < 10; i++) expect((await signIn(i % 2 === 0 ? webA : webB, email)).statusCode).toBe(400);
    expect((await signIn(webA, email)).statusCode).toBe(429);
    expect((await signIn(webB, email)).statusCode).toBe(429);
    expect((await signIn(elsewhere, email)).statusCode).toBe(400);
  });
});

describe('a start whose REDIS_URL cannot be reached', () => {
  it('fails naming the address, never the password', async () => {
    await expect(buildTestApp({ env: { REDIS_URL: 'redis://:hunter2@127.0.0.1:1/0' } })).rejects.toThrow(
      /^REDIS_URL: Redis at redis:\/\/127\.0\.0\.1:1\/0 could not be reached \(.*ECONNREFUSED.*\)$/,
    );
  });
});
