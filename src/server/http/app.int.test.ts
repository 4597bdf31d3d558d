import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '#tests/support/build-test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('HTTP basics', () => {
  it('GET /healthz answers ok with the version', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', version: expect.any(String) });
  });

  it('an unknown API path answers a JSON 404 in the API error format', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/nothing-here?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'No route for GET /api/v1/nothing-here' } });
  });

  it('every response carries the security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    // Plain http: HSTS would be meaningless, so it is not sent.
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('migrations ran: the instance settings table exists', async () => {
    const rows = await t.deps.database.db.selectFrom('instance_settings').selectAll().execute();
    expect(Array.isArray(rows)).toBe(true);
  });
});
