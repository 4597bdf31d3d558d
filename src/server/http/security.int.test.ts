import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '#tests/support/build-test-app.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const PREFLIGHT_HEADERS = {
  origin: 'https://app.example.com',
  'access-control-request-method': 'POST',
  'access-control-request-headers': 'apikey,authorization,content-type,x-client-info,x-supabase-api-version',
};

describe('CORS', () => {
  it('allows no foreign origin by default (the app is same-origin)', async () => {
    t = await buildTestApp();
    const res = await t.app.inject({ method: 'OPTIONS', url: '/auth/v1/token', headers: PREFLIGHT_HEADERS });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('a configured origin gets the supabase-js headers allowed and the API version exposed', async () => {
    t = await buildTestApp({ env: { CORS_ORIGINS: 'https://app.example.com' } });
    const preflight = await t.app.inject({ method: 'OPTIONS', url: '/auth/v1/token', headers: PREFLIGHT_HEADERS });
    expect(preflight.statusCode).toBeLessThan(300);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://app.example.com');
    const allowed = String(preflight.headers['access-control-allow-headers']).toLowerCase();
    for (const header of ['apikey', 'authorization', 'content-type', 'x-client-info', 'x-supabase-api-version']) {
      expect(allowed).toContain(header);
    }
    const other = await t.app.inject({ method: 'OPTIONS', url: '/auth/v1/token', headers: { ...PREFLIGHT_HEADERS, origin: 'https://evil.example.com' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();

    const res = await t.app.inject({ method: 'GET', url: '/healthz', headers: { origin: 'https://app.example.com' } });
    expect(String(res.headers['access-control-expose-headers'])).toContain('X-Supabase-Api-Version');
  });
});

describe('transport security', () => {
  it('sends HSTS and upgrades insecure requests when the public URL is https', async () => {
    t = await buildTestApp({ env: { PUBLIC_URL: 'https://parley.example.com' } });
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(String(res.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
  });

  it('forbids framing', async () => {
    t = await buildTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  });
});

describe('request bodies on /api/v1', () => {
  it('malformed JSON is a clear 400 in the API error format', async () => {
    t = await buildTestApp();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/anything',
      headers: { 'content-type': 'application/json' },
      payload: '{"title":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: { code: 'VALIDATION_FAILED', message: expect.stringMatching(/^Could not parse request body as JSON: /) },
    });
  });

  it('a body over 1 MiB is refused with 413 before any route runs', async () => {
    t = await buildTestApp();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/anything',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ blob: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});
