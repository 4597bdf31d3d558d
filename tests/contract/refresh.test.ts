import type { Session } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startAuthServer, type AuthServer } from '#tests/support/auth-server.ts';
import { startFaultProxy } from '#tests/support/fault-proxy.ts';
import { freshEmail, memoryStorage, testClient } from '#tests/support/supabase-client.ts';

// Contract test plan C: refresh-token rotation and reuse, and the client's session recovery.

let server: AuthServer;
beforeAll(async () => {
  server = await startAuthServer({ AUTH_AUTOCONFIRM: 'true', AUTH_REFRESH_TOKEN_REUSE_INTERVAL: '0' });
});
afterAll(() => server.close());

async function signedIn(target = server) {
  const client = target.client();
  const email = freshEmail('refresh');
  const { data, error } = await client.sb.auth.signUp({ email, password: 'secret12' });
  if (error || !data.session) throw error ?? new Error('no session');
  return { ...client, session: data.session, email };
}

const isRefresh = (url: string) => url.startsWith('/auth/v1/token?grant_type=refresh_token');

describe('refresh tokens', () => {
  it('C14 rotate: a new refresh token and access token, and the user still works', async () => {
    const { sb, events, session } = await signedIn();
    const { data, error } = await sb.auth.refreshSession();
    expect(error).toBeNull();
    expect(data.session?.refresh_token).not.toBe(session.refresh_token);
    expect(data.session?.access_token).toBeTruthy();
    expect(events).toContain('TOKEN_REFRESHED');
    expect((await sb.auth.getUser()).error).toBeNull();
  });

  it('C15 the previous token right after a rotation returns the active token (no logout)', async () => {
    const { sb, session } = await signedIn();
    const rotated = await sb.auth.refreshSession();
    const again = await sb.auth.refreshSession({ refresh_token: session.refresh_token });
    expect(again.error).toBeNull();
    expect(again.data.session?.refresh_token).toBe(rotated.data.session?.refresh_token);
  });

  it('C16 reuse of an older token ends the whole session', async () => {
    const { sb, session } = await signedIn();
    const rt1 = session.refresh_token;
    const s2 = (await sb.auth.refreshSession()).data.session!;
    const s3 = (await sb.auth.refreshSession()).data.session!;
    // A second later, past the reuse interval (0 s, counted in whole seconds), without waiting for it:
    // the server runs in this process and reads the same Date.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 1100 });
    const reuse = await sb.auth.refreshSession({ refresh_token: rt1 }).finally(() => vi.useRealTimers());
    expect(reuse.error?.status).toBe(400);
    expect(reuse.error?.code).toBe('refresh_token_already_used');
    expect(reuse.error?.message).toBe('Invalid Refresh Token: Already Used');
    const other = server.client();
    expect((await other.sb.auth.getUser(s3.access_token)).error?.name).toBe('AuthSessionMissingError');
    const latest = await other.sb.auth.refreshSession({ refresh_token: s3.refresh_token });
    expect(latest.error?.code).toBe('refresh_token_not_found');
    expect(s2.refresh_token).not.toBe(s3.refresh_token);
  });

  it('C17 unknown and malformed refresh tokens', async () => {
    const { sb } = server.client();
    const unknown = await sb.auth.refreshSession({ refresh_token: 'zzzzzzzzzzzz' });
    expect(unknown.error?.status).toBe(400);
    expect(unknown.error?.code).toBe('refresh_token_not_found');
    expect(unknown.error?.message).toBe('Invalid Refresh Token: Refresh Token Not Found');
    const malformed = await sb.auth.refreshSession({ refresh_token: 'short' });
    expect(malformed.error?.status).toBe(400);
    expect(malformed.error?.code).toBe('validation_failed');
    expect(malformed.error?.message).toBe('Refresh token is not valid');
  });

  it('C18 an expired stored session is refreshed once at start-up', async () => {
    const proxy = await startFaultProxy(server.baseUrl);
    try {
      const { session, storageKey } = await signedIn();
      const expired: Session = { ...session, expires_at: Math.floor(Date.now() / 1000) - 60 };
      const storage = memoryStorage({ [storageKey]: JSON.stringify(expired) });
      const { sb, events } = testClient(proxy.url, server.anonKey, storage);
      const { data } = await sb.auth.getSession();
      expect(data.session?.refresh_token).not.toBe(session.refresh_token);
      expect(proxy.requests.filter((r) => r.method === 'POST' && isRefresh(r.url))).toHaveLength(1);
      await expect.poll(() => events).toEqual(['TOKEN_REFRESHED', 'INITIAL_SESSION']);
    } finally {
      await proxy.close();
    }
  });

  it('C19 a stored session whose refresh token was revoked is signed out at start-up', async () => {
    const { sb, session, storageKey } = await signedIn();
    await sb.auth.signOut({ scope: 'others' });
    const other = server.client();
    await other.sb.auth.setSession({ access_token: session.access_token, refresh_token: session.refresh_token });
    await other.sb.auth.signOut(); // revokes every session of this user, the stored one included
    const expired: Session = { ...session, expires_at: Math.floor(Date.now() / 1000) - 60 };
    const storage = memoryStorage({ [storageKey]: JSON.stringify(expired) });
    const fresh = testClient(server.baseUrl, server.anonKey, storage);
    const { data } = await fresh.sb.auth.getSession();
    expect(data.session).toBeNull();
    await expect.poll(() => fresh.events).toEqual(['SIGNED_OUT', 'INITIAL_SESSION']);
    expect(storage.has(storageKey)).toBe(false);
  });

  it('C20 the client retries a refresh through two 503s with growing pauses', async () => {
    const proxy = await startFaultProxy(server.baseUrl);
    try {
      const { session, storageKey } = await signedIn();
      const storage = memoryStorage({ [storageKey]: JSON.stringify(session) });
      const { sb } = testClient(proxy.url, server.anonKey, storage);
      await sb.auth.getSession();
      proxy.failNext((r) => isRefresh(r.url), 2, 503);
      const { data, error } = await sb.auth.refreshSession();
      expect(error).toBeNull();
      expect(data.session?.refresh_token).not.toBe(session.refresh_token);
      const attempts = proxy.requests.filter((r) => isRefresh(r.url));
      expect(attempts).toHaveLength(3);
      const gaps = [attempts[1]!.at - attempts[0]!.at, attempts[2]!.at - attempts[1]!.at];
      // About 200 ms, then 400. Timers never fire early, but on a busy machine they fire late (CI once
      // saw 394 ms for the first): the lower bounds hold the pauses' lengths, the upper ones rule out seconds.
      expect(gaps[0]).toBeGreaterThanOrEqual(190);
      expect(gaps[0]).toBeLessThan(1_000);
      expect(gaps[1]).toBeGreaterThanOrEqual(390);
      expect(gaps[1]).toBeLessThan(2_000);
    } finally {
      await proxy.close();
    }
  });
});

describe('refresh reuse interval', () => {
  it('allows an older token to be replayed within the interval and returns the active token', async () => {
    const lenient = await startAuthServer({ AUTH_AUTOCONFIRM: 'true', AUTH_REFRESH_TOKEN_REUSE_INTERVAL: '10' });
    try {
      const { sb, session } = await signedIn(lenient);
      await sb.auth.refreshSession();
      const s3 = (await sb.auth.refreshSession()).data.session!;
      const replay = await lenient.client().sb.auth.refreshSession({ refresh_token: session.refresh_token });
      expect(replay.error).toBeNull();
      expect(replay.data.session?.refresh_token).toBe(s3.refresh_token);
    } finally {
      await lenient.close();
    }
  });
});
