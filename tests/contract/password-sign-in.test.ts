import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authFetch, startAuthServer, type AuthServer } from '#tests/support/auth-server.ts';
import { freshEmail, UUID_PATTERN } from '#tests/support/supabase-client.ts';

// Contract test plan B: password sign-in.

let confirmed: AuthServer;
let unconfirmed: AuthServer;
beforeAll(async () => {
  [confirmed, unconfirmed] = await Promise.all([startAuthServer({ AUTH_AUTOCONFIRM: 'true' }), startAuthServer({ AUTH_AUTOCONFIRM: 'false' })]);
});
afterAll(async () => {
  await Promise.all([confirmed.close(), unconfirmed.close()]);
});

describe('password sign-in', () => {
  it('B10 a wrong password and an unknown email give identical invalid_credentials errors', async () => {
    const email = freshEmail('b10');
    await confirmed.client().sb.auth.signUp({ email, password: 'secret12' });
    const wrong = await confirmed.client().sb.auth.signInWithPassword({ email, password: 'wrong-password' });
    const unknown = await confirmed.client().sb.auth.signInWithPassword({ email: freshEmail('nobody'), password: 'secret12' });
    for (const { error } of [wrong, unknown]) {
      expect(error?.name).toBe('AuthApiError');
      expect(error?.status).toBe(400);
      expect(error?.code).toBe('invalid_credentials');
      expect(error?.message).toBe('Invalid login credentials');
    }
    const raw = async (body: object) =>
      (await authFetch(confirmed, '/token?grant_type=password', { method: 'POST', body, headers: { 'x-supabase-api-version': '2024-01-01' } })).body;
    expect(await raw({ email, password: 'nope-nope' })).toEqual(await raw({ email: freshEmail('nobody'), password: 'nope-nope' }));
  });

  it('B11 an unconfirmed user with the right password gets email_not_confirmed, with a wrong one invalid_credentials', async () => {
    const email = freshEmail('b11');
    await unconfirmed.client().sb.auth.signUp({ email, password: 'secret12' });
    const right = await unconfirmed.client().sb.auth.signInWithPassword({ email, password: 'secret12' });
    expect(right.error?.status).toBe(400);
    expect(right.error?.code).toBe('email_not_confirmed');
    expect(right.error?.message).toBe('Email not confirmed');
    const wrong = await unconfirmed.client().sb.auth.signInWithPassword({ email, password: 'secret13' });
    expect(wrong.error?.code).toBe('invalid_credentials');
  });

  it('B12 a successful sign-in carries GoTrue claims signed by a key in the JWKS', async () => {
    const email = freshEmail('b12');
    await confirmed.client().sb.auth.signUp({ email, password: 'secret12' });
    const { sb, events } = confirmed.client();
    const { data, error } = await sb.auth.signInWithPassword({ email, password: 'secret12' });
    expect(error).toBeNull();
    expect(events).toContain('SIGNED_IN');
    const claimsResult = await sb.auth.getClaims();
    expect(claimsResult.error).toBeNull();
    const claims = claimsResult.data!.claims;
    const header = claimsResult.data!.header;
    expect(claims.iss).toBe(`${confirmed.baseUrl}/auth/v1`);
    expect(claims.sub).toBe(data.user!.id);
    expect(claims.aud).toBe('authenticated');
    expect(claims.role).toBe('authenticated');
    expect(claims.aal).toBe('aal1');
    expect((claims.amr as { method: string }[])[0]!.method).toBe('password');
    expect(claims.session_id).toMatch(UUID_PATTERN);
    expect(claims.is_anonymous).toBe(false);
    expect(claims.exp - claims.iat).toBe(3600);
    expect(Object.keys(claims)).toEqual([
      'iss',
      'sub',
      'aud',
      'exp',
      'iat',
      'email',
      'phone',
      'app_metadata',
      'user_metadata',
      'role',
      'aal',
      'amr',
      'session_id',
      'is_anonymous',
    ]);
    expect(header.alg).toBe('ES256');
    const jwks = (await authFetch(confirmed, '/.well-known/jwks.json')).body as { keys: { kid: string; ext?: boolean; use: string; crv: string }[] };
    const key = jwks.keys.find((k) => k.kid === header.kid);
    expect(key).toMatchObject({ use: 'sig', crv: 'P-256', alg: 'ES256', key_ops: ['verify'] });
    expect(key?.ext).not.toBe(false);
    expect(JSON.stringify(jwks)).not.toContain('"d"'); // no private part
  });

  it('B13 the email is matched case-insensitively', async () => {
    const email = freshEmail('b13');
    await confirmed.client().sb.auth.signUp({ email, password: 'secret12' });
    const { error } = await confirmed.client().sb.auth.signInWithPassword({ email: email.toUpperCase(), password: 'secret12' });
    expect(error).toBeNull();
  });
});
