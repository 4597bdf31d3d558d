import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MeSchema } from '#shared/contracts/me.ts';
import { authFetch, startAuthServer, type AuthServer } from '#tests/support/auth-server.ts';
import { freshEmail } from '#tests/support/supabase-client.ts';

// Contract test plan H: wire details, plus Parley's own API verifying our tokens.

let server: AuthServer;
beforeAll(async () => {
  server = await startAuthServer({ AUTH_AUTOCONFIRM: 'true', CORS_ORIGINS: 'http://localhost:5173' });
});
afterAll(() => server.close());

async function session() {
  const { sb } = server.client();
  const { data, error } = await sb.auth.signUp({ email: freshEmail('wire'), password: 'secret12', options: { data: { full_name: 'Grace Hopper' } } });
  if (error || !data.session) throw error ?? new Error('no session');
  return data.session;
}

describe('error shapes', () => {
  it('H43 versioned clients get {code, message} and the version header; others the legacy shape', async () => {
    const body = { email: freshEmail('none'), password: 'whatever1' };
    const versioned = await authFetch(server, '/token?grant_type=password', { method: 'POST', body, headers: { 'x-supabase-api-version': '2024-01-01' } });
    expect(versioned.status).toBe(400);
    expect(versioned.body).toEqual({ code: 'invalid_credentials', message: 'Invalid login credentials' });
    expect(versioned.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    const legacy = await authFetch(server, '/token?grant_type=password', { method: 'POST', body });
    expect(legacy.body).toEqual({ code: 400, error_code: 'invalid_credentials', msg: 'Invalid login credentials' });
    expect(legacy.headers.get('x-sb-error-code')).toBe('invalid_credentials');
  });

  it('malformed JSON and oversized bodies get GoTrue errors', async () => {
    const bad = await fetch(`${server.baseUrl}/auth/v1/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-supabase-api-version': '2024-01-01' },
      body: '{"email":',
    });
    expect(bad.status).toBe(400);
    const badBody = (await bad.json()) as { code: string; message: string };
    expect(badBody.code).toBe('bad_json');
    expect(badBody.message.startsWith('Could not parse request body as JSON:')).toBe(true);
    const big = await fetch(`${server.baseUrl}/auth/v1/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-supabase-api-version': '2024-01-01' },
      body: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ code: 'request_entity_too_large', message: 'Request body too large (max 1048576 bytes)' });
  });

  it('tolerates null PKCE fields and unknown fields, and ignores the anon key as a bearer on public endpoints', async () => {
    const answer = await authFetch(server, '/signup', {
      method: 'POST',
      body: {
        email: freshEmail('nulls'),
        password: 'secret12',
        data: {},
        gotrue_meta_security: {},
        code_challenge: null,
        code_challenge_method: null,
        surprise: 1,
      },
    });
    expect(answer.status).toBe(200);
  });

  it('a token without a session id or the anon key used as a user token is refused', async () => {
    const anonAsUser = await authFetch(server, '/user', { bearer: server.anonKey, headers: { 'x-supabase-api-version': '2024-01-01' } });
    expect(anonAsUser.status).toBe(403);
    expect(anonAsUser.body).toEqual({ code: 'bad_jwt', message: 'invalid claim: missing sub claim' });
    const missing = await fetch(`${server.baseUrl}/auth/v1/user`, { headers: { 'x-supabase-api-version': '2024-01-01' } });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ code: 'no_authorization', message: 'This endpoint requires a valid Bearer token' });
    const s = await session();
    const [h, p] = s.access_token.split('.');
    const forged = await authFetch(server, '/user', { bearer: `${h}.${p}.${'A'.repeat(86)}`, headers: { 'x-supabase-api-version': '2024-01-01' } });
    expect(forged.status).toBe(403);
    expect((forged.body as { code: string }).code).toBe('bad_jwt');
  });
});

describe('CORS for a separately served web app', () => {
  it('H44 preflight allows the client headers and errors expose the API version header', async () => {
    const preflight = await fetch(`${server.baseUrl}/auth/v1/token`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'apikey,authorization,content-type,x-client-info,x-supabase-api-version',
      },
    });
    expect(preflight.status).toBeLessThan(300);
    const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const header of ['apikey', 'authorization', 'content-type', 'x-client-info', 'x-supabase-api-version']) expect(allowed).toContain(header);
    const failed = await authFetch(server, '/token?grant_type=password', {
      method: 'POST',
      body: { email: freshEmail('cors'), password: 'nope-nope' },
      headers: { origin: 'http://localhost:5173', 'x-supabase-api-version': '2024-01-01' },
    });
    expect(failed.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect((failed.headers.get('access-control-expose-headers') ?? '').toLowerCase()).toContain('x-supabase-api-version');
  });
});

describe('bodiless requests with a JSON content type', () => {
  it('H45 POST /logout and DELETE /factors/{id} with no body are not 400', async () => {
    const s = await session();
    const { sb } = server.client();
    await sb.auth.setSession({ access_token: s.access_token, refresh_token: s.refresh_token });
    const factor = (await sb.auth.mfa.enroll({ factorType: 'totp' })).data!;
    const headers = { apikey: server.anonKey, authorization: `Bearer ${s.access_token}`, 'content-type': 'application/json;charset=UTF-8' };
    const remove = await fetch(`${server.baseUrl}/auth/v1/factors/${factor.id}`, { method: 'DELETE', headers });
    expect(remove.status).toBe(200);
    expect(await remove.json()).toEqual({ id: factor.id });
    const logout = await fetch(`${server.baseUrl}/auth/v1/logout?scope=global`, { method: 'POST', headers: { ...headers, 'content-length': '0' } });
    expect(logout.status).toBe(204);
    expect(await logout.text()).toBe('');
  });
});

describe('health, settings and keys', () => {
  it('H46 health and settings', async () => {
    const health = await authFetch(server, '/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ name: 'GoTrue' });
    const settings = await authFetch(server, '/settings');
    expect(settings.body).toMatchObject({ external: { email: true, phone: false }, mailer_autoconfirm: true, disable_signup: false });
  });

  it('JWKS is cacheable and lists only public keys', async () => {
    const jwks = await authFetch(server, '/.well-known/jwks.json');
    expect(jwks.headers.get('cache-control')).toBe('public, max-age=600');
    const keys = (jwks.body as { keys: Record<string, unknown>[] }).keys;
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(key).not.toHaveProperty('d');
  });
});

describe('Parley API with our access tokens', () => {
  it('GET /api/v1/me answers the token owner and 401s otherwise', async () => {
    const s = await session();
    const me = await fetch(`${server.baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${s.access_token}` } });
    expect(me.status).toBe(200);
    const body = MeSchema.parse(await me.json());
    expect(body).toMatchObject({ id: s.user.id, email: s.user.email, fullName: 'Grace Hopper', emailConfirmed: true, aal: 'aal1' });
    const none = await fetch(`${server.baseUrl}/api/v1/me`);
    expect(none.status).toBe(401);
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe('UNAUTHENTICATED');
    const { sb } = server.client();
    await sb.auth.setSession({ access_token: s.access_token, refresh_token: s.refresh_token });
    await sb.auth.signOut();
    const afterLogout = await fetch(`${server.baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${s.access_token}` } });
    expect(afterLogout.status).toBe(401);
  });
});

describe('rate limits', () => {
  it('H47 the 31st sign-up from one address within five minutes gets over_request_rate_limit', async () => {
    const limited = await startAuthServer({ AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'true' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 30; i += 1) {
        const { error } = await limited.client().sb.auth.signUp({ email: freshEmail(`burst${i}`), password: '1' });
        statuses.push(error?.status ?? 200);
      }
      expect(statuses.every((s) => s === 422)).toBe(true); // weak password: each one still counts
      const { error } = await limited.client().sb.auth.signUp({ email: freshEmail('burst31'), password: 'secret12' });
      expect(error?.name).toBe('AuthApiError');
      expect(error?.status).toBe(429);
      expect(error?.code).toBe('over_request_rate_limit');
      expect(error?.message).toBe('Request rate limit reached');
    } finally {
      await limited.close();
    }
  });
});
