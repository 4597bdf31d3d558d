import { AuthSessionMissingError, AuthWeakPasswordError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServer, type AuthServer } from '#tests/support/auth-server.ts';
import { freshEmail } from '#tests/support/supabase-client.ts';

// Contract test plan D (user) and E (sign-out).

let server: AuthServer;
beforeAll(async () => {
  server = await startAuthServer({ AUTH_AUTOCONFIRM: 'true' });
});
afterAll(() => server.close());

async function signedIn(email = freshEmail('user'), password = 'secret12') {
  const client = server.client();
  const { data, error } = await client.sb.auth.signUp({ email, password, options: { data: { full_name: 'Ada' } } });
  if (error || !data.session) throw error ?? new Error('no session');
  return { ...client, session: data.session, email, password };
}

async function secondDevice(email: string, password: string) {
  const client = server.client();
  const { error } = await client.sb.auth.signInWithPassword({ email, password });
  if (error) throw error;
  return client;
}

describe('user', () => {
  it('D21 getUser returns the session user; without a session it fails locally', async () => {
    const { sb, session } = await signedIn();
    const { data, error } = await sb.auth.getUser();
    expect(error).toBeNull();
    expect(Object.keys(data.user!).sort()).toEqual(Object.keys(session.user).sort());
    expect(data.user!.identities).toHaveLength(1);
    expect(data.user!.factors).toBeUndefined();
    const anonymous = await server.client().sb.auth.getUser();
    expect(anonymous.error).toBeInstanceOf(AuthSessionMissingError);
  });

  it('D22 updateUser merges metadata and deletes keys set to null', async () => {
    const { sb, events } = await signedIn();
    const first = await sb.auth.updateUser({ data: { full_name: 'Bea', title: 'CTO' } });
    expect(first.error).toBeNull();
    expect(first.data.user?.user_metadata).toMatchObject({ full_name: 'Bea', title: 'CTO', email_verified: true });
    expect(events).toContain('USER_UPDATED');
    const second = await sb.auth.updateUser({ data: { title: null } });
    expect(second.data.user?.user_metadata.title).toBeUndefined();
    expect(second.data.user?.user_metadata.full_name).toBe('Bea');
    const refreshed = await sb.auth.refreshSession();
    expect(refreshed.data.session?.user.user_metadata.full_name).toBe('Bea');
  });

  it('D23 a password change signs out the other devices and replaces the password', async () => {
    const a = await signedIn();
    const b = await secondDevice(a.email, a.password);
    expect((await a.sb.auth.updateUser({ password: 'newpass12', current_password: a.password })).error).toBeNull();
    const onB = await b.sb.auth.getUser();
    expect(onB.error).toBeInstanceOf(AuthSessionMissingError);
    expect(b.events).toContain('SIGNED_OUT');
    expect((await a.sb.auth.getUser()).error).toBeNull();
    const old = await server.client().sb.auth.signInWithPassword({ email: a.email, password: a.password });
    expect(old.error?.code).toBe('invalid_credentials');
    const renewed = await server.client().sb.auth.signInWithPassword({ email: a.email, password: 'newpass12' });
    expect(renewed.error).toBeNull();
  });

  it('D24 the same password is refused, and so is a weak one', async () => {
    const { sb, password } = await signedIn();
    const same = await sb.auth.updateUser({ password, current_password: password });
    expect(same.error?.status).toBe(422);
    expect(same.error?.code).toBe('same_password');
    expect(same.error?.message).toBe('New password should be different from the old password.');
    const weak = await sb.auth.updateUser({ password: '123', current_password: password });
    expect(weak.error).toBeInstanceOf(AuthWeakPasswordError);
  });

  it('D25 a new password needs the current one: missing or wrong, nothing changes (AUTH_UPDATE_PASSWORD_REQUIRE_CURRENT_PASSWORD)', async () => {
    const a = await signedIn();
    const b = await secondDevice(a.email, a.password);
    const missing = await a.sb.auth.updateUser({ password: 'newpass12' });
    expect(missing.error?.status).toBe(400);
    expect(missing.error?.code).toBe('current_password_required');
    expect(missing.error?.message).toBe('Current password required when setting new password.');
    const wrong = await a.sb.auth.updateUser({ password: 'newpass12', current_password: 'not-it-12' });
    expect(wrong.error?.status).toBe(400);
    expect(wrong.error?.code).toBe('current_password_invalid');
    expect(wrong.error?.message).toBe('Current password required when setting new password.');
    // Nothing changed: the other device is still signed in and the old password still works.
    expect((await b.sb.auth.getUser()).error).toBeNull();
    expect((await server.client().sb.auth.signInWithPassword({ email: a.email, password: a.password })).error).toBeNull();
    expect((await server.client().sb.auth.signInWithPassword({ email: a.email, password: 'newpass12' })).error?.code).toBe('invalid_credentials');
  });

  it('refuses app_metadata from a user', async () => {
    const { session } = await signedIn();
    const response = await fetch(`${server.baseUrl}/auth/v1/user`, {
      method: 'PUT',
      headers: {
        apikey: server.anonKey,
        authorization: `Bearer ${session.access_token}`,
        'content-type': 'application/json',
        'x-supabase-api-version': '2024-01-01',
      },
      body: JSON.stringify({ app_metadata: { role: 'admin' } }),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ code: 'not_admin', message: 'Updating app_metadata requires admin privileges' });
  });
});

describe('sign-out', () => {
  it('E25 signOut ends the session on the server: old access and refresh tokens are dead', async () => {
    const { sb, events, storage, storageKey, session } = await signedIn();
    const { error } = await sb.auth.signOut();
    expect(error).toBeNull();
    expect(events).toContain('SIGNED_OUT');
    expect(storage.has(storageKey)).toBe(false);
    const other = server.client();
    expect((await other.sb.auth.getUser(session.access_token)).error).toBeInstanceOf(AuthSessionMissingError);
    const raw = await fetch(`${server.baseUrl}/auth/v1/user`, {
      headers: { apikey: server.anonKey, authorization: `Bearer ${session.access_token}`, 'x-supabase-api-version': '2024-01-01' },
    });
    expect(raw.status).toBe(403);
    expect(((await raw.json()) as { code: string }).code).toBe('session_not_found');
    const refresh = await other.sb.auth.refreshSession({ refresh_token: session.refresh_token });
    expect(refresh.error?.code).toBe('refresh_token_not_found');
  });

  it('E26 local scope ends only this device', async () => {
    const a = await signedIn();
    const b = await secondDevice(a.email, a.password);
    expect((await a.sb.auth.signOut({ scope: 'local' })).error).toBeNull();
    expect(a.events).toContain('SIGNED_OUT');
    expect((await b.sb.auth.getUser()).error).toBeNull();
  });

  it('E27 others scope ends every other device and keeps this one', async () => {
    const a = await signedIn();
    const b = await secondDevice(a.email, a.password);
    const eventsBefore = a.events.length;
    expect((await a.sb.auth.signOut({ scope: 'others' })).error).toBeNull();
    expect(a.events.length).toBe(eventsBefore);
    expect((await a.sb.auth.getUser()).error).toBeNull();
    expect((await b.sb.auth.getUser()).error).toBeInstanceOf(AuthSessionMissingError);
  });

  it('E28 signOut without a session succeeds without a request', async () => {
    const { sb } = server.client();
    expect((await sb.auth.signOut()).error).toBeNull();
  });
});
