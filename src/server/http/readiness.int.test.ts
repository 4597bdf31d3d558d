import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '#tests/support/build-test-app.ts';
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

  it('answers 503 naming Redis while Redis cannot be reached', async () => {
    const redis = new URL(testRedisUrl());
    const proxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port) });
    const t = await buildTestApp({ env: { REDIS_URL: proxy.url.replace(/^http:/, 'redis:') } });
    apps.push(t);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toMatchObject({
      status: 'ready',
      dependencies: { database: { ok: true }, redis: { ok: true } },
    });

    proxy.refuse('');
    proxy.cut('');
    const down = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ status: 'unavailable', dependencies: { database: { ok: true }, redis: { ok: false, reason: expect.any(String) } } });
    await proxy.close();
  });
});
