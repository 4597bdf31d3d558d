import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';

// Failed password sign-ins are counted per (email, IP) and per IP, never so that guesses from other
// addresses lock the owner out: their correct password from a new address still signs in (slowed
// down at most, never blocked). Rate limits on, as in production; each injected request names its
// client IP, and requests over real HTTP come from 127.0.0.1.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ listen: true, env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'true' } });
});
afterAll(() => t.close());

const signIn = (email: string, password: string, ip: string) =>
  t.app.inject({ method: 'POST', url: '/auth/v1/token?grant_type=password', remoteAddress: ip, payload: { email, password } });

describe('password sign-in limits', () => {
  it('20 wrong guesses from 20 addresses do not keep the owner out: the right password from a new address signs in', async () => {
    const { email } = await signUpUser(t.app, 'spread');
    const guesses = await Promise.all(Array.from({ length: 20 }, (_, i) => signIn(email, `wrong-${i}`, `198.51.100.${i + 1}`)));
    expect(guesses.map((r) => r.json<{ error_code: string }>().error_code)).toEqual(Array(20).fill('invalid_credentials'));

    const owner = await signIn(email, 'secret12', '203.0.113.7');
    expect(owner.statusCode).toBe(200);
    expect(owner.json<{ access_token: string }>().access_token).toBeTruthy();
    // One of the guessing addresses with the right password is not blocked either (one failure of its own).
    expect((await signIn(email, 'secret12', '198.51.100.1')).statusCode).toBe(200);
  });

  it('10 failures in a row from one address block that address for that email only, even with the right password', async () => {
    const { email } = await signUpUser(t.app, 'pair');
    for (let i = 0; i < 10; i++) expect((await signIn(email, `wrong-${i}`, '192.0.2.10')).statusCode).toBe(400);
    const blocked = await signIn(email, 'secret12', '192.0.2.10');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ error_code: 'over_request_rate_limit', msg: 'Request rate limit reached' });

    expect((await signIn(email, 'secret12', '192.0.2.11')).statusCode).toBe(200);
    const other = await signUpUser(t.app, 'pair-other');
    expect((await signIn(other.email, 'secret12', '192.0.2.10')).statusCode).toBe(200);
  });

  it('the password that confirms Delete Account is a sign-in attempt: 10 wrong ones from an address block it there, and sign-in too', async () => {
    const { email, token } = await signUpUser(t.app, 'confirming');
    const deleteAccount = (password: string, ip: string) =>
      t.app.inject({ method: 'DELETE', url: '/api/v1/me', remoteAddress: ip, headers: { authorization: `Bearer ${token}` }, payload: { email, password } });
    for (let i = 0; i < 10; i++) expect((await deleteAccount(`wrong-${i}`, '192.0.2.30')).statusCode).toBe(403);
    const blocked = await deleteAccount('secret12', '192.0.2.30');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({ error: { code: 'RATE_LIMITED', message: 'Too many wrong passwords. Try again later.' } });
    expect((await signIn(email, 'secret12', '192.0.2.30')).statusCode).toBe(429);
    // The account is still there: its owner signs in from elsewhere.
    expect((await signIn(email, 'secret12', '192.0.2.31')).statusCode).toBe(200);
  });

  it('the current password that a password or email change asks for is a sign-in attempt too', async () => {
    const { email, token } = await signUpUser(t.app, 'changing');
    const change = (payload: Record<string, string>, ip: string) =>
      t.app.inject({ method: 'PUT', url: '/auth/v1/user', remoteAddress: ip, headers: { authorization: `Bearer ${token}` }, payload });
    for (let i = 0; i < 10; i++) {
      const payload: Record<string, string> =
        i % 2 ? { password: 'brandnew12', current_password: `wrong-${i}` } : { email: `moved-${i}-${email}`, current_password: `wrong-${i}` };
      expect((await change(payload, '192.0.2.40')).json()).toMatchObject({ error_code: 'current_password_invalid' });
    }
    const blocked = await change({ email: `moved-${email}`, current_password: 'secret12' }, '192.0.2.40');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ error_code: 'over_request_rate_limit', msg: 'Request rate limit reached' });
    expect((await signIn(email, 'secret12', '192.0.2.40')).statusCode).toBe(429);
    expect((await signIn(email, 'secret12', '192.0.2.41')).statusCode).toBe(200);
  });

  it('a success clears the failures of its address, so a typo later is not the tenth strike', async () => {
    const { email } = await signUpUser(t.app, 'reset');
    for (let i = 0; i < 9; i++) await signIn(email, `wrong-${i}`, '192.0.2.20');
    expect((await signIn(email, 'secret12', '192.0.2.20')).statusCode).toBe(200);
    expect((await signIn(email, 'typo', '192.0.2.20')).statusCode).toBe(400);
    expect((await signIn(email, 'secret12', '192.0.2.20')).statusCode).toBe(200);
  });
});
