import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { testRedisUrl } from '#tests/support/redis-server.ts';
import { startTcpProxy } from '#tests/support/tcp-proxy.ts';

// /readyz: whether this process can serve now, each dependency checked live and the one that is
// down named, for a load balancer's probe and an operator.

const apps: TestApp[] = [];
afterAll(() => Promise.all(apps.map((t) => t.close())));

describe('GET /readyz', () => {
  it('answers ready with each dependency it checked', async () => {
    const t = await buildTestApp();
    apps.push(t);
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', version: expect.any(String), dependencies: { database: { ok: true } } });
  });

  it('stays in service, degraded, naming Redis while Redis cannot be reached: reading goes on, password sign-in waits', async () => {
    const redis = new URL(testRedisUrl());
    const proxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port) });
    const t = await buildTestApp({ env: { REDIS_URL: proxy.url.replace(/^http:/, 'redis:'), AUTH_AUTOCONFIRM: 'true' } });
    apps.push(t);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toMatchObject({
      status: 'ready',
      dependencies: { database: { ok: true }, redis: { ok: true } },
    });
    const { token, email } = await signUpUser(t.app, 'readiness');

    proxy.refuse('');
    proxy.cut('');
    const down = await t.app.inject({ method: 'GET', url: '/readyz' });
    // Every process shares the one Redis: a balancer taking them all out would stop the reading too.
    expect(down.statusCode).toBe(200);
    expect(down.json()).toMatchObject({ status: 'degraded', dependencies: { database: { ok: true }, redis: { ok: false, reason: expect.any(String) } } });
    const meetings = await t.app.inject({ method: 'GET', url: '/api/v1/meetings', headers: { authorization: `Bearer ${token}` } });
    expect(meetings.statusCode).toBe(200);
    // The guessing limits fail closed: without their count, a password is not tried.
    const signIn = await t.app.inject({ method: 'POST', url: '/auth/v1/token?grant_type=password', payload: { email, password: 'secret12' } });
    expect(signIn.statusCode).toBe(429);
    await proxy.close();
  });
});
