import { AuthApiError, AuthInvalidCredentialsError, AuthWeakPasswordError, isAuthApiError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServer, type AuthServer } from '#tests/support/auth-server.ts';
import { freshEmail, outbox, UUID_PATTERN } from '#tests/support/supabase-client.ts';

// Contract test plan A (auth-contract §8): sign-up through the real supabase-js client.

describe('sign-up with autoconfirm on (no SMTP)', () => {
  let server: AuthServer;
  beforeAll(async () => {
    server = await startAuthServer({ AUTH_AUTOCONFIRM: 'true' });
  });
  afterAll(() => server.close());

  it('A1 creates a confirmed user and a session, and stores it', async () => {
    const { sb, events, storage, storageKey } = server.client();
    const local = freshEmail('Ada');
    const email = local.replace(/^ada/, 'Ada').replace('@example.com', '@Example.com');
    const before = Math.floor(Date.now() / 1000);
    const { data, error } = await sb.auth.signUp({ email, password: 'secret12', options: { data: { full_name: 'Ada' } } });
    const after = Math.ceil(Date.now() / 1000);
    expect(error).toBeNull();
    const session = data.session!;
    expect(session.token_type).toBe('bearer');
    expect(session.expires_in).toBe(3600);
    // An hour from when the server answered: between the request's start and its end (a loaded machine may take seconds).
    expect(session.expires_at).toBeGreaterThanOrEqual(before + 3600);
    expect(session.expires_at).toBeLessThanOrEqual(after + 3600);
    const user = data.user!;
    expect(user.email).toBe(email.toLowerCase());
    expect(user.user_metadata.full_name).toBe('Ada');
    expect(user.app_metadata).toEqual({ provider: 'email', providers: ['email'] });
    expect(user.identities).toHaveLength(1);
    expect(user.identities?.[0]?.provider).toBe('email');
    expect(user.email_confirmed_at).toBeTruthy();
    expect(user.factors).toBeUndefined();
    await sb.auth.getSession();
    expect(events.filter((e) => e !== 'INITIAL_SESSION')).toEqual(['SIGNED_IN']);
    const stored = JSON.parse(storage.get(storageKey) ?? 'null') as { access_token: string; user: { id: string } };
    expect(stored.access_token).toBe(session.access_token);
    expect(stored.user.id).toBe(user.id);
    expect(storageKey).toBe('sb-127-auth-token');

    // The session that came with the account is dated at its confirmation (the web app's first-visit
    // welcome reads that); a later sign-in is dated later.
    expect(user.last_sign_in_at).toBe(user.email_confirmed_at);
    const again = await server.client().sb.auth.signInWithPassword({ email, password: 'secret12' });
    expect(Date.parse(again.data.user!.last_sign_in_at!)).toBeGreaterThan(Date.parse(user.email_confirmed_at!));
  });

  it('A2 refuses the same email again with user_already_exists', async () => {
    const email = freshEmail('dup');
    await server.client().sb.auth.signUp({ email, password: 'secret12' });
    const { data, error } = await server.client().sb.auth.signUp({ email: email.toUpperCase(), password: 'secret12' });
    expect(error).toBeInstanceOf(AuthApiError);
    expect(error?.status).toBe(422);
    expect(error?.code).toBe('user_already_exists');
    expect(error?.message).toBe('User already registered');
    expect(data.user).toBeNull();
  });

  it('A6 rejects a short password with the weak-password error and its reasons', async () => {
    const { error } = await server.client().sb.auth.signUp({ email: freshEmail(), password: '12345' });
    expect(error).toBeInstanceOf(AuthWeakPasswordError);
    expect(error?.status).toBe(422);
    expect(error?.code).toBe('weak_password');
    expect((error as AuthWeakPasswordError).reasons).toEqual(['length']);
    expect(error?.message).toBe('Password should be at least 6 characters.');
  });

  it('A7 rejects a password over 72 characters', async () => {
    const { error } = await server.client().sb.auth.signUp({ email: freshEmail(), password: 'x'.repeat(73) });
    expect(isAuthApiError(error)).toBe(true);
    expect(error?.status).toBe(400);
    expect(error?.code).toBe('validation_failed');
    expect(error?.message).toBe('Password cannot be longer than 72 characters');
  });

  it('A8 rejects a malformed email', async () => {
    const { error } = await server.client().sb.auth.signUp({ email: 'not-an-email', password: 'secret12' });
    expect(error?.status).toBe(400);
    expect(error?.code).toBe('validation_failed');
    expect(error?.message).toBe('Unable to validate email address: invalid format');
  });

  it('A9 without an email the client refuses before any request', async () => {
    const { error } = await server.client().sb.auth.signUp({ password: 'secret12' } as never);
    expect(error).toBeInstanceOf(AuthInvalidCredentialsError);
    expect(error?.message).toBe('You must provide either an email or phone number and a password');
  });
});

describe('sign-up with email confirmation (autoconfirm off)', () => {
  let server: AuthServer;
  beforeAll(async () => {
    server = await startAuthServer({ AUTH_AUTOCONFIRM: 'false' });
  });
  afterAll(() => server.close());

  it('A3 returns the user without a session and emails a code and a link', async () => {
    const { sb, events } = server.client();
    const email = freshEmail('confirm');
    const { data, error } = await sb.auth.signUp({ email, password: 'secret12', options: { emailRedirectTo: 'http://localhost:5173/welcome' } });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.id).toMatch(UUID_PATTERN);
    expect(data.user?.email_confirmed_at).toBeUndefined();
    expect(data.user?.confirmation_sent_at).toBeTruthy();
    expect(data.user?.identities).toHaveLength(1);
    expect(events).not.toContain('SIGNED_IN');
    const [mail] = outbox(server.dataDir, email);
    expect(mail?.otp).toMatch(/^\d{6}$/);
    const link = new URL(mail!.link);
    expect(link.pathname).toBe('/auth/v1/verify');
    expect(link.searchParams.get('type')).toBe('signup');
    expect(link.searchParams.get('token')).toMatch(/^[0-9a-f]{56}$/);
    expect(link.searchParams.get('redirect_to')).toBe('http://localhost:5173/welcome');
  });

  it('A4 answers a confirmed address with an obfuscated user and sends nothing', async () => {
    const email = freshEmail('known');
    const first = await server.client().sb.auth.signUp({ email, password: 'secret12' });
    const otp = outbox(server.dataDir, email)[0]!.otp;
    await server.client().sb.auth.verifyOtp({ email, token: otp, type: 'signup' });
    const mailsBefore = outbox(server.dataDir, email).length;
    const { data, error } = await server.client().sb.auth.signUp({ email, password: 'other123' });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.identities).toEqual([]);
    expect(data.user?.id).not.toBe(first.data.user?.id);
    expect(outbox(server.dataDir, email)).toHaveLength(mailsBefore);
  });

  it('A5 a second sign-up within 60 s is refused by the email frequency limit', async () => {
    const email = freshEmail('twice');
    await server.client().sb.auth.signUp({ email, password: 'secret12' });
    const { error } = await server.client().sb.auth.signUp({ email, password: 'secret12' });
    expect(error?.status).toBe(429);
    expect(error?.code).toBe('over_email_send_rate_limit');
    expect(error?.message).toMatch(/^For security purposes, you can only request this after \d+ seconds\.$/);
  });
});
