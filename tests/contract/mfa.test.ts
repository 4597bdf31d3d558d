import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServer, type AuthServer } from '#tests/support/auth-server.ts';
import { freshEmail, UUID_PATTERN } from '#tests/support/supabase-client.ts';

// Contract test plan G: TOTP multi-factor authentication.

let server: AuthServer;
beforeAll(async () => {
  server = await startAuthServer({ AUTH_AUTOCONFIRM: 'true' });
});
afterAll(() => server.close());

const code = (secret: string) => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate();

async function signedIn() {
  const client = server.client();
  const email = freshEmail('mfa');
  const { error } = await client.sb.auth.signUp({ email, password: 'secret12' });
  if (error) throw error;
  return { ...client, email };
}

describe('TOTP factors', () => {
  it('G37–G39 enrol, challenge and verify raise the session to aal2', async () => {
    const { sb, events } = await signedIn();
    const enrolled = await sb.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
    expect(enrolled.error).toBeNull();
    const factor = enrolled.data!;
    expect(factor.id).toMatch(UUID_PATTERN);
    expect(factor.type).toBe('totp');
    expect(factor.totp.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(factor.totp.uri.startsWith('otpauth://totp/')).toBe(true);
    expect(factor.totp.qr_code.startsWith('data:image/svg+xml;utf-8,<svg')).toBe(true);
    const listed = await sb.auth.mfa.listFactors();
    expect(listed.data?.all.map((f) => [f.id, f.status])).toEqual([[factor.id, 'unverified']]);

    // Five minutes from when the server made it: between the seconds just before and just after asking.
    const asked = Math.floor(Date.now() / 1000);
    const challenge = await sb.auth.mfa.challenge({ factorId: factor.id });
    const answered = Math.ceil(Date.now() / 1000);
    expect(challenge.error).toBeNull();
    expect(challenge.data!.id).toMatch(UUID_PATTERN);
    expect(challenge.data!.type).toBe('totp');
    expect(challenge.data!.expires_at).toBeGreaterThanOrEqual(asked + 299);
    expect(challenge.data!.expires_at).toBeLessThanOrEqual(answered + 301);

    const refreshBefore = (await sb.auth.getSession()).data.session!.refresh_token;
    const verified = await sb.auth.mfa.verify({ factorId: factor.id, challengeId: challenge.data!.id, code: code(factor.totp.secret) });
    expect(verified.error).toBeNull();
    expect(events).toContain('MFA_CHALLENGE_VERIFIED');
    expect(verified.data!.refresh_token).not.toBe(refreshBefore);
    const aal = await sb.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(aal.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
    expect(aal.data!.currentAuthenticationMethods[0]).toMatchObject({ method: 'totp' });
    expect((await sb.auth.mfa.listFactors()).data!.totp).toHaveLength(1);
  });

  it('G40 a wrong code, and a challenge used twice', async () => {
    const { sb } = await signedIn();
    const factor = (await sb.auth.mfa.enroll({ factorType: 'totp' })).data!;
    const challenge = (await sb.auth.mfa.challenge({ factorId: factor.id })).data!;
    const correct = code(factor.totp.secret);
    const wrongCode = correct === '123456' ? '654321' : '123456';
    const wrong = await sb.auth.mfa.verify({ factorId: factor.id, challengeId: challenge.id, code: wrongCode });
    expect(wrong.error?.status).toBe(422);
    expect(wrong.error?.code).toBe('mfa_verification_failed');
    expect(wrong.error?.message).toBe('Invalid TOTP code entered');
    expect((await sb.auth.mfa.verify({ factorId: factor.id, challengeId: challenge.id, code: correct })).error).toBeNull();
    const replay = await sb.auth.mfa.verify({ factorId: factor.id, challengeId: challenge.id, code: correct });
    expect(replay.error?.status).toBe(422);
    expect(replay.error?.code).toBe('mfa_ip_address_mismatch');
  });

  it('G41 a fresh aal1 sign-in must step up before changing the password or removing the factor', async () => {
    const first = await signedIn();
    const factor = (await first.sb.auth.mfa.enroll({ factorType: 'totp' })).data!;
    await first.sb.auth.mfa.challengeAndVerify({ factorId: factor.id, code: code(factor.totp.secret) });

    const { sb } = server.client();
    await sb.auth.signInWithPassword({ email: first.email, password: 'secret12' });
    expect((await sb.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
    const update = await sb.auth.updateUser({ password: 'another12', current_password: 'secret12' });
    expect(update.error?.status).toBe(401);
    expect(update.error?.code).toBe('insufficient_aal');
    const unenroll = await sb.auth.mfa.unenroll({ factorId: factor.id });
    expect(unenroll.error?.status).toBe(422);
    expect(unenroll.error?.code).toBe('insufficient_aal');

    const stepUp = await sb.auth.mfa.challengeAndVerify({ factorId: factor.id, code: code(factor.totp.secret) });
    expect(stepUp.error).toBeNull();
    expect((await sb.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal2');
    const removed = await sb.auth.mfa.unenroll({ factorId: factor.id });
    expect(removed.error).toBeNull();
    expect(removed.data).toEqual({ id: factor.id });
    expect((await sb.auth.getUser()).data.user?.factors ?? []).toEqual([]);
  });

  it('G42 duplicate friendly names and unknown factors', async () => {
    const { sb } = await signedIn();
    await sb.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Laptop' });
    const duplicate = await sb.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Laptop' });
    expect(duplicate.error?.status).toBe(422);
    expect(duplicate.error?.code).toBe('mfa_factor_name_conflict');
    const unknown = await sb.auth.mfa.challenge({ factorId: crypto.randomUUID() });
    expect(unknown.error?.status).toBe(404);
    expect(unknown.error?.code).toBe('mfa_factor_not_found');
    expect(unknown.error?.message).toBe('Factor not found');
  });

  it("one user's factor is invisible to another user", async () => {
    const owner = await signedIn();
    const factor = (await owner.sb.auth.mfa.enroll({ factorType: 'totp' })).data!;
    const stranger = await signedIn();
    expect((await stranger.sb.auth.mfa.challenge({ factorId: factor.id })).error?.code).toBe('mfa_factor_not_found');
    expect((await stranger.sb.auth.mfa.unenroll({ factorId: factor.id })).error?.code).toBe('mfa_factor_not_found');
  });
});
