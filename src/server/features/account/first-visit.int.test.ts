import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Me } from '#shared/contracts/me.ts';
import { buildTestApp, type TestApp } from '#tests/support/build-test-app.ts';

// Issue 32: the dashboard welcomes a person's first visit ("Welcome to Parley") and welcomes them
// back on every later one, by what the server knows of them (the session of their first visit),
// not by the way the account was made: here one that had to be confirmed before its first sign-in
// (an invitation, a confirmation link or an administrator), whose first session is a sign-in.

const PASSWORD = 'secret12';
let t: TestApp;
let now = new Date();
beforeAll(async () => {
  t = await buildTestApp({ listen: true, env: { AUTH_AUTOCONFIRM: 'false', AUTH_RATE_LIMITS: 'false' }, deps: { clock: { now: () => now } } });
});
afterAll(() => t.close());

async function signIn(email: string): Promise<string> {
  const response = await fetch(`${t.baseUrl}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', apikey: t.deps.auth.anonKey },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

async function firstVisit(token: string): Promise<boolean> {
  const response = await fetch(`${t.baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return ((await response.json()) as Me).firstVisit;
}

describe('GET /api/v1/me firstVisit', () => {
  it('is true for the first session of an account confirmed before it ever signed in, through reloads, and false for any later session', async () => {
    const email = `invited-${crypto.randomUUID()}@example.com`;
    const signup = await fetch(`${t.baseUrl}/auth/v1/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: t.deps.auth.anonKey },
      body: JSON.stringify({ email, password: PASSWORD, data: { full_name: 'Łukasz Nowak' } }),
    });
    expect(signup.status).toBe(200);
    // Confirmed by someone else's hand (an administrator, or the link opened on another device): no session came with it.
    await t.deps.database.db.updateTable('auth_users').set({ email_confirmed_at: new Date().toISOString() }).where('email', '=', email).execute();

    const first = await signIn(email);
    expect(await firstVisit(first)).toBe(true);
    expect(await firstVisit(first)).toBe(true); // the dashboard reloaded: still the first visit

    const later = await signIn(email);
    expect(await firstVisit(later)).toBe(false);
    expect(await firstVisit(await signIn(email))).toBe(false);
  });

  it('ends when the person comes back after half an hour away, though still in the session of the first visit (sessions never expire)', async () => {
    const email = `kept-${crypto.randomUUID()}@example.com`;
    const signup = await fetch(`${t.baseUrl}/auth/v1/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: t.deps.auth.anonKey },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(signup.status).toBe(200);
    await t.deps.database.db.updateTable('auth_users').set({ email_confirmed_at: new Date().toISOString() }).where('email', '=', email).execute();
    const session = await signIn(email);
    const start = now;
    try {
      expect(await firstVisit(session)).toBe(true);
      // Twenty minutes on, and twenty more: each look is within half an hour of the last, so the same visit.
      now = new Date(start.getTime() + 20 * 60_000);
      expect(await firstVisit(session)).toBe(true);
      now = new Date(start.getTime() + 40 * 60_000);
      expect(await firstVisit(session)).toBe(true);
      // Away for 31 minutes: a return, and it stays one.
      now = new Date(start.getTime() + 71 * 60_000);
      expect(await firstVisit(session)).toBe(false);
      expect(await firstVisit(session)).toBe(false);
    } finally {
      now = start;
    }
  });
});
