import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServer, type AuthServer } from '#tests/support/auth-server.ts';
import { freshEmail, lastEmail, outbox } from '#tests/support/supabase-client.ts';

// Contract test plan F: recovery, verification, magic links and resends, reading the development outbox.

let server: AuthServer; // confirmation on, default 60 s email frequency
let quick: AuthServer; // confirmation on, no per-address email frequency (F29 tests it on `server`)
beforeAll(async () => {
  [server, quick] = await Promise.all([
    startAuthServer({ AUTH_AUTOCONFIRM: 'false' }),
    startAuthServer({ AUTH_AUTOCONFIRM: 'false', AUTH_EMAIL_FREQUENCY: '0' }),
  ]);
});
afterAll(async () => {
  await Promise.all([server.close(), quick.close()]);
});

/** A confirmed user, confirmed the way a person would: with the emailed code. */
async function confirmedUser(target: AuthServer, password = 'secret12') {
  const email = freshEmail('flow');
  await target.client().sb.auth.signUp({ email, password });
  const { error } = await target.client().sb.auth.verifyOtp({ email, token: lastEmail(target.dataDir, email).otp, type: 'signup' });
  if (error) throw error;
  return email;
}

describe('password recovery', () => {
  it('F29 sends a recovery link to known addresses only, once a minute', async () => {
    const email = await confirmedUser(server);
    const { sb } = server.client();
    const sent = await sb.auth.resetPasswordForEmail(email, { redirectTo: 'http://localhost:5173/reset' });
    expect(sent).toEqual({ data: {}, error: null });
    const link = new URL(lastEmail(server.dataDir, email).link);
    expect(link.searchParams.get('type')).toBe('recovery');
    expect(link.searchParams.get('redirect_to')).toBe('http://localhost:5173/reset');
    const nobody = freshEmail('nobody');
    expect(await sb.auth.resetPasswordForEmail(nobody)).toEqual({ data: {}, error: null });
    expect(outbox(server.dataDir, nobody)).toEqual([]);
    const again = await sb.auth.resetPasswordForEmail(email);
    expect(again.error?.status).toBe(429);
    expect(again.error?.code).toBe('over_email_send_rate_limit');
  });

  it('F30 the recovery code opens a recovery session, lets the password change, and works once', async () => {
    const email = await confirmedUser(server);
    const { sb, events } = server.client();
    await sb.auth.resetPasswordForEmail(email);
    const otp = lastEmail(server.dataDir, email).otp;
    const { data, error } = await sb.auth.verifyOtp({ email, token: otp, type: 'recovery' });
    expect(error).toBeNull();
    expect(data.session?.access_token).toBeTruthy();
    expect(events).toContain('PASSWORD_RECOVERY');
    // A recovery session sets the new password without the forgotten one, once: after that it is an ordinary session.
    expect((await sb.auth.updateUser({ password: 'brandnew1' })).error).toBeNull();
    expect((await sb.auth.updateUser({ password: 'brandnew2' })).error?.code).toBe('current_password_required');
    expect((await server.client().sb.auth.signInWithPassword({ email, password: 'brandnew1' })).error).toBeNull();
    const reuse = await server.client().sb.auth.verifyOtp({ email, token: otp, type: 'recovery' });
    expect(reuse.error?.status).toBe(403);
    expect(reuse.error?.code).toBe('otp_expired');
  });

  it('F31 the token_hash from the link opens a recovery session', async () => {
    const email = await confirmedUser(server);
    await server.client().sb.auth.resetPasswordForEmail(email);
    const tokenHash = new URL(lastEmail(server.dataDir, email).link).searchParams.get('token')!;
    const { sb, events } = server.client();
    const { data, error } = await sb.auth.verifyOtp({ token_hash: tokenHash, type: 'recovery' });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(events).toContain('PASSWORD_RECOVERY');
  });

  it('F32 wrong codes and wrong link tokens', async () => {
    const email = await confirmedUser(server);
    const wrongOtp = await server.client().sb.auth.verifyOtp({ email, token: '000000', type: 'recovery' });
    expect(wrongOtp.error?.status).toBe(403);
    expect(wrongOtp.error?.code).toBe('otp_expired');
    expect(wrongOtp.error?.message).toBe('Token has expired or is invalid');
    const wrongHash = await server.client().sb.auth.verifyOtp({ token_hash: 'f'.repeat(56), type: 'recovery' });
    expect(wrongHash.error?.status).toBe(403);
    expect(wrongHash.error?.message).toBe('Email link is invalid or has expired');
  });
});

describe('email links', () => {
  it('F33 the signup link confirms the account and redirects with a session in the fragment', async () => {
    const email = freshEmail('link');
    await server.client().sb.auth.signUp({ email, password: 'secret12', options: { emailRedirectTo: 'http://localhost:5173/welcome' } });
    const link = lastEmail(server.dataDir, email).link;
    const answer = await fetch(link, { redirect: 'manual' }); // no apikey: an email link is a plain navigation
    expect(answer.status).toBe(303);
    const location = new URL(answer.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe('http://localhost:5173/welcome');
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('access_token')).toBeTruthy();
    expect(fragment.get('refresh_token')).toBeTruthy();
    expect(fragment.get('expires_in')).toBe('3600');
    expect(Number(fragment.get('expires_at'))).toBeGreaterThan(Date.now() / 1000);
    expect(fragment.get('token_type')).toBe('bearer');
    expect(fragment.get('type')).toBe('signup');
    expect([...fragment.keys()]).toEqual([...fragment.keys()].sort());
    // The link opened the account's first session: dated at the confirmation, as sign-up's is.
    const confirmed = (await server.client().sb.auth.getUser(fragment.get('access_token')!)).data.user!;
    expect(confirmed.last_sign_in_at).toBe(confirmed.email_confirmed_at);
    const signedIn = await server.client().sb.auth.signInWithPassword({ email, password: 'secret12' });
    expect(signedIn.error).toBeNull();
    expect(signedIn.data.user!.last_sign_in_at).not.toBe(confirmed.email_confirmed_at);

    const tampered = link.replace(/token=[0-9a-f]+/, `token=${'0'.repeat(56)}`);
    const failed = await fetch(tampered, { redirect: 'manual' });
    expect(failed.status).toBe(303);
    const failedLocation = failed.headers.get('location')!;
    expect(failedLocation).toContain('#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired');
  });

  it('never redirects off-site: an unknown redirect_to falls back to the site URL', async () => {
    const email = freshEmail('offsite');
    await server.client().sb.auth.signUp({ email, password: 'secret12', options: { emailRedirectTo: 'https://evil.example.net/steal' } });
    const link = new URL(lastEmail(server.dataDir, email).link);
    expect(link.searchParams.get('redirect_to')).toBe(server.config.auth.siteUrl);
  });
});

describe('magic links and resends', () => {
  it('F34 a confirmed user signs in with an emailed code', async () => {
    const email = await confirmedUser(quick);
    const { sb, events } = quick.client();
    const sent = await sb.auth.signInWithOtp({ email });
    expect(sent).toEqual({ data: { user: null, session: null }, error: null });
    const mail = lastEmail(quick.dataDir, email);
    expect(mail.kind).toBe('magiclink');
    const { error } = await sb.auth.verifyOtp({ email, token: mail.otp, type: 'email' });
    expect(error).toBeNull();
    expect(events).toContain('SIGNED_IN');
    const claims = (await sb.auth.getClaims()).data!.claims;
    expect((claims.amr as { method: string }[])[0]!.method).toBe('otp');
  });

  it('F35 no account is created when shouldCreateUser is false', async () => {
    const { error } = await quick.client().sb.auth.signInWithOtp({ email: freshEmail('none'), options: { shouldCreateUser: false } });
    expect(error?.status).toBe(422);
    expect(error?.code).toBe('otp_disabled');
    expect(error?.message).toBe('Signups not allowed for otp');
  });

  it('F36 resend sends a new confirmation to unconfirmed addresses only', async () => {
    const email = freshEmail('resend');
    await quick.client().sb.auth.signUp({ email, password: 'secret12' });
    const { sb } = quick.client();
    expect((await sb.auth.resend({ type: 'signup', email })).error).toBeNull();
    expect(outbox(quick.dataDir, email)).toHaveLength(2);
    const confirmed = await confirmedUser(quick);
    const before = outbox(quick.dataDir, confirmed).length;
    expect((await sb.auth.resend({ type: 'signup', email: confirmed })).error).toBeNull();
    expect(outbox(quick.dataDir, confirmed)).toHaveLength(before);
  });
});

describe('email change', () => {
  const HALF = 'Confirmation link accepted. Please proceed to confirm link sent to the other email';

  async function signedIn(target: AuthServer, email: string, password = 'secret12') {
    const client = target.client();
    const { error } = await client.sb.auth.signInWithPassword({ email, password });
    if (error) throw error;
    return client;
  }

  it('needs the current password: an access token alone changes nothing and sends nothing', async () => {
    const email = await confirmedUser(quick);
    const { sb } = await signedIn(quick, email);
    const next = freshEmail('taken-over');
    const missing = await sb.auth.updateUser({ email: next });
    expect(missing.error?.status).toBe(400);
    expect(missing.error?.code).toBe('current_password_required');
    expect(missing.error?.message).toBe('Current password required when changing email address.');
    const wrong = await sb.auth.updateUser({ email: next, current_password: 'not-it-12' });
    expect(wrong.error?.code).toBe('current_password_invalid');
    expect(outbox(quick.dataDir, next)).toEqual([]);
    expect((await sb.auth.getUser()).data.user?.new_email).toBeUndefined();
  });

  it('asks both addresses, and changes the address only when both have confirmed', async () => {
    const email = await confirmedUser(quick);
    const { sb, events } = await signedIn(quick, email);
    const next = freshEmail('moved');
    const before = outbox(quick.dataDir, email).length;
    const { data, error } = await sb.auth.updateUser({ email: next, current_password: 'secret12' });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.new_email).toBe(next);
    expect(data.user?.email_change_sent_at).toBeTruthy();
    expect(events).toContain('USER_UPDATED');

    const toNew = lastEmail(quick.dataDir, next);
    expect(toNew.kind).toBe('email_change');
    const toCurrent = lastEmail(quick.dataDir, email);
    expect(outbox(quick.dataDir, email)).toHaveLength(before + 1);
    expect(toCurrent.kind).toBe('email_change');
    expect(toCurrent.text).toContain(`from ${email} to ${next}`);
    expect(toCurrent.text).toContain('If it was not you, ignore this email');
    expect(toCurrent.otp).not.toBe(toNew.otp);

    // The new address alone: accepted (GoTrue's message; the client reports no user and no session), the address unchanged.
    const first = await quick.client().sb.auth.verifyOtp({ email: next, token: toNew.otp, type: 'email_change' });
    expect(first).toEqual({ data: { user: null, session: null }, error: null });
    expect((await sb.auth.getUser()).data.user?.email).toBe(email);
    expect((await quick.client().sb.auth.signInWithPassword({ email: next, password: 'secret12' })).error?.code).toBe('invalid_credentials');
    // A recovery asked for the new address goes nowhere yet.
    await quick.client().sb.auth.resetPasswordForEmail(next);
    expect(outbox(quick.dataDir, next)).toHaveLength(1);

    // The current address confirms too: the change is made and a session opens.
    const second = await quick.client().sb.auth.verifyOtp({ email, token: toCurrent.otp, type: 'email_change' });
    expect(second.error).toBeNull();
    expect(second.data.session?.access_token).toBeTruthy();
    expect(second.data.user?.email).toBe(next);
    expect(second.data.user?.new_email).toBeUndefined();
    expect((await quick.client().sb.auth.signInWithPassword({ email: next, password: 'secret12' })).error).toBeNull();
    expect((await quick.client().sb.auth.signInWithPassword({ email, password: 'secret12' })).error?.code).toBe('invalid_credentials');
  });

  it('the two links work in either order; the first redirects with GoTrue message and no session', async () => {
    const email = await confirmedUser(quick);
    const { sb } = await signedIn(quick, email);
    const next = freshEmail('linked');
    expect((await sb.auth.updateUser({ email: next, current_password: 'secret12' }, { emailRedirectTo: 'http://localhost:5173/settings' })).error).toBeNull();
    const first = await fetch(lastEmail(quick.dataDir, email).link, { redirect: 'manual' });
    expect(first.status).toBe(303);
    const firstLocation = new URL(first.headers.get('location')!);
    expect(`${firstLocation.origin}${firstLocation.pathname}`).toBe('http://localhost:5173/settings');
    expect(Object.fromEntries(new URLSearchParams(firstLocation.hash.slice(1)))).toEqual({ message: HALF });
    const second = await fetch(lastEmail(quick.dataDir, next).link, { redirect: 'manual' });
    const fragment = new URLSearchParams(new URL(second.headers.get('location')!).hash.slice(1));
    expect(fragment.get('type')).toBe('email_change');
    expect(fragment.get('access_token')).toBeTruthy();
    expect((await sb.auth.getUser()).data.user?.email).toBe(next);
  });

  it('a new request starts over: a confirmation of the earlier pair does not count', async () => {
    const email = await confirmedUser(quick);
    const { sb } = await signedIn(quick, email);
    const first = freshEmail('first');
    expect((await sb.auth.updateUser({ email: first, current_password: 'secret12' })).error).toBeNull();
    const oldCurrent = lastEmail(quick.dataDir, email);
    const second = freshEmail('second');
    expect((await sb.auth.updateUser({ email: second, current_password: 'secret12' })).error).toBeNull();
    const stale = await quick.client().sb.auth.verifyOtp({ email, token: oldCurrent.otp, type: 'email_change' });
    expect(stale.error?.code).toBe('otp_expired');
    const staleNew = await quick.client().sb.auth.verifyOtp({ email: first, token: lastEmail(quick.dataDir, first).otp, type: 'email_change' });
    expect(staleNew.error?.code).toBe('otp_expired');
    // Confirmed from the current address, then asked again by resend: both addresses must confirm the new pair.
    expect((await quick.client().sb.auth.verifyOtp({ email, token: lastEmail(quick.dataDir, email).otp, type: 'email_change' })).error).toBeNull();
    expect((await quick.client().sb.auth.resend({ type: 'email_change', email: second })).error).toBeNull();
    const again = await quick.client().sb.auth.verifyOtp({ email, token: lastEmail(quick.dataDir, email).otp, type: 'email_change' });
    expect(again.data.session).toBeNull();
    expect((await sb.auth.getUser()).data.user?.email).toBe(email);
    const done = await quick.client().sb.auth.verifyOtp({ email: second, token: lastEmail(quick.dataDir, second).otp, type: 'email_change' });
    expect(done.data.user?.email).toBe(second);
  });

  it('a recovery session changes the address without the forgotten password, still confirmed by both', async () => {
    const email = await confirmedUser(quick);
    await quick.client().sb.auth.resetPasswordForEmail(email);
    const { sb } = quick.client();
    expect((await sb.auth.verifyOtp({ email, token: lastEmail(quick.dataDir, email).otp, type: 'recovery' })).error).toBeNull();
    const next = freshEmail('recovered');
    const { data, error } = await sb.auth.updateUser({ email: next });
    expect(error).toBeNull();
    expect(data.user?.new_email).toBe(next);
    expect(data.user?.email).toBe(email);
  });
});
