import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';

// Uploads (tus) answer origins exactly as the rest of the server does (http/security.ts): none but
// the server's own by default, and only the configured ones with CORS_ORIGINS.

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const ALLOWED = 'https://app.example.com';
const FOREIGN = 'https://evil.example.com';

const preflight = (app: TestApp, origin: string) =>
  app.app.inject({
    method: 'OPTIONS',
    url: '/uploads',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,tus-resumable,upload-length,upload-metadata' },
  });

async function create(app: TestApp, origin: string) {
  const { token } = await signUpUser(app.app, 'cors');
  const metadata = `meetingId ${Buffer.from(crypto.randomUUID()).toString('base64')},filetype ${Buffer.from('audio/wav').toString('base64')}`;
  return app.app.inject({
    method: 'POST',
    url: '/uploads',
    headers: { origin, authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0', 'upload-length': '4', 'upload-metadata': metadata },
  });
}

describe('CORS on /uploads', () => {
  it('answers no foreign origin by default, like /api/v1 and /auth/v1', async () => {
    t = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' } });
    expect((await preflight(t, FOREIGN)).headers['access-control-allow-origin']).toBeUndefined();
    const created = await create(t, FOREIGN);
    expect(created.statusCode).toBe(404); // the made-up meeting: the request itself was served
    expect(created.headers['access-control-allow-origin']).toBeUndefined();
    const api = await t.app.inject({ method: 'OPTIONS', url: '/api/v1/meetings', headers: { origin: FOREIGN, 'access-control-request-method': 'GET' } });
    expect(api.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('allows a configured origin (with credentials, as the rest of the server) and still refuses a foreign one', async () => {
    t = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false', CORS_ORIGINS: ALLOWED } });
    const allowed = await preflight(t, ALLOWED);
    expect(allowed.statusCode).toBeLessThan(300);
    expect(allowed.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(allowed.headers['access-control-allow-credentials']).toBe('true');
    expect(String(allowed.headers['access-control-allow-headers']).toLowerCase()).toContain('upload-metadata');
    expect((await create(t, ALLOWED)).headers['access-control-allow-origin']).toBe(ALLOWED);

    expect((await preflight(t, FOREIGN)).headers['access-control-allow-origin']).toBeUndefined();
    expect((await create(t, FOREIGN)).headers['access-control-allow-origin']).toBeUndefined();
  });
});
