import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';

let t: TestApp;
let now = new Date();
beforeAll(async () => {
  t = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' }, deps: { clock: { now: () => now } } });
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = async (bearer: string, method: Method, url: string, payload?: object) => {
  const response = await t.app.inject({ method, url, headers: { authorization: `Bearer ${bearer}` }, ...(payload ? { payload } : {}) });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of several shapes, each asserted field by field
  return { status: response.statusCode, body: response.json() as Record<string, any> };
};

const newToken = async (session: string, body: object) => {
  const created = await call(session, 'POST', '/api/v1/tokens', body);
  expect(created.status).toBe(201);
  return created.body as { id: string; token: string };
};

describe('personal API tokens', () => {
  it('are shown once, listed without the token, used within their scope, and revoked', async () => {
    const { token: session } = await signUpUser(t.app, 'tokens');
    const { id, token } = await newToken(session, { name: 'CI script', scopes: ['read'] });
    expect(token).toMatch(/^prly_[A-Za-z0-9_-]{43}$/);

    const listed = await call(session, 'GET', '/api/v1/tokens');
    expect(listed.body.tokens).toEqual([
      { id, name: 'CI script', scopes: ['read'], preview: `${token.slice(0, 9)}…`, createdAt: expect.any(String), expiresAt: null, lastUsedAt: null },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(token);

    const meetings = await call(token, 'GET', '/api/v1/meetings');
    expect(meetings.status).toBe(200);
    expect(meetings.body.total).toBe(6);
    expect((await call(session, 'GET', '/api/v1/tokens')).body.tokens[0].lastUsedAt).toBe(now.toISOString());

    const write = await call(token, 'POST', '/api/v1/meetings', { title: 'From a script' });
    expect(write).toEqual({ status: 403, body: { error: { code: 'FORBIDDEN', message: 'This API token may not do this: POST needs the write scope.' } } });

    expect((await call(session, 'DELETE', `/api/v1/tokens/${id}`)).status).toBe(200);
    const revoked = await call(token, 'GET', '/api/v1/meetings');
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.message).toBe('This API token is not valid: it was revoked, it expired, or it was mistyped.');
    expect((await call(session, 'DELETE', `/api/v1/tokens/${id}`)).status).toBe(404);
  });

  it('with write scope change data, and never manage tokens or the account', async () => {
    const { token: session, email } = await signUpUser(t.app, 'tokens');
    const { token } = await newToken(session, { name: 'Importer', scopes: ['write'] });
    expect((await call(session, 'GET', '/api/v1/tokens')).body.tokens[0].scopes).toEqual(['read', 'write']);
    const created = await call(token, 'POST', '/api/v1/meetings', { title: 'From a script' });
    expect(created.status).toBe(201);

    const refused = { error: { code: 'FORBIDDEN', message: 'API tokens cannot be used for this; sign in to Parley to do it.' } };
    expect(await call(token, 'POST', '/api/v1/tokens', { name: 'more', scopes: ['write'] })).toEqual({ status: 403, body: refused });
    expect(await call(token, 'GET', '/api/v1/tokens')).toEqual({ status: 403, body: refused });
    expect(await call(token, 'DELETE', '/api/v1/me', { email, password: 'secret12' })).toEqual({ status: 403, body: refused });
    expect(await call(token, 'DELETE', '/api/v1/me/data', { email })).toEqual({ status: 403, body: refused });
    // The auth server knows nothing of API tokens: a password or email change needs a session.
    const auth = await t.app.inject({ method: 'PUT', url: '/auth/v1/user', headers: { authorization: `Bearer ${token}` }, payload: { password: 'hijacked1' } });
    expect(auth.statusCode).toBe(403);
    expect(auth.json()).toMatchObject({ error_code: 'bad_jwt' });
  });

  it('stop at their expiry, and go with the account', async () => {
    const { token: session, email } = await signUpUser(t.app, 'tokens');
    const past = await call(session, 'POST', '/api/v1/tokens', { name: 'old', scopes: ['read'], expiresAt: new Date(now.getTime() - 1000).toISOString() });
    expect(past.status).toBe(400);
    expect(past.body.error.message).toBe('The expiry date must be in the future.');
    const { token } = await newToken(session, { name: 'week', scopes: ['read'], expiresAt: new Date(now.getTime() + 7 * 86_400_000).toISOString() });
    expect((await call(token, 'GET', '/api/v1/me')).status).toBe(200);
    const started = now;
    now = new Date(started.getTime() + 8 * 86_400_000);
    try {
      expect((await call(token, 'GET', '/api/v1/me')).status).toBe(401);
    } finally {
      now = started;
    }
    const { token: kept } = await newToken(session, { name: 'kept', scopes: ['read'] });
    expect((await call(kept, 'GET', '/api/v1/me')).body.email).toBe(email);
    expect((await call(session, 'DELETE', '/api/v1/me', { email, password: 'secret12' })).status).toBe(200);
    expect((await call(kept, 'GET', '/api/v1/me')).status).toBe(401);
  });

  it('are refused without a name or scope', async () => {
    const { token: session } = await signUpUser(t.app, 'tokens');
    expect((await call(session, 'POST', '/api/v1/tokens', { name: ' ', scopes: ['read'] })).status).toBe(400);
    expect((await call(session, 'POST', '/api/v1/tokens', { name: 'x', scopes: [] })).status).toBe(400);
    expect((await call(session, 'POST', '/api/v1/tokens', { name: 'x', scopes: ['admin'] })).status).toBe(400);
  });
});
