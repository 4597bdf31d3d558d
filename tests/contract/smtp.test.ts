import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServer, type AuthServer } from '#tests/support/auth-server.ts';
import { startFakeSmtp } from '#tests/support/fake-smtp.ts';
import { freshEmail } from '#tests/support/supabase-client.ts';

// With SMTP configured, emails go out over SMTP, sign-up needs confirmation, and the links work.

let smtp: Awaited<ReturnType<typeof startFakeSmtp>>;
let server: AuthServer;
beforeAll(async () => {
  smtp = await startFakeSmtp();
  server = await startAuthServer({
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtp.port),
    SMTP_USER: 'parley',
    SMTP_PASS: 'secret',
    SMTP_FROM: 'Parley <parley@example.com>',
  });
});
afterAll(async () => {
  await server.close();
  await smtp.close();
});

const mailTo = async (email: string) => {
  await expect.poll(() => smtp.messages.some((m) => m.to && JSON.stringify(m.to).includes(email))).toBe(true);
  return smtp.messages.filter((m) => JSON.stringify(m.to).includes(email)).at(-1)!;
};

describe('email over SMTP', () => {
  it('requires confirmation, and the emailed link confirms the account and signs in', async () => {
    const settings = (await (await fetch(`${server.baseUrl}/auth/v1/settings`)).json()) as { mailer_autoconfirm: boolean };
    expect(settings.mailer_autoconfirm).toBe(false);
    const email = freshEmail('smtp');
    const { data } = await server.client().sb.auth.signUp({ email, password: 'secret12' });
    expect(data.session).toBeNull();
    const mail = await mailTo(email);
    expect(mail.subject).toBe('Confirm your Parley account');
    expect(mail.from?.text).toContain('parley@example.com');
    const link = /https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(mail.text ?? '')?.[0];
    expect(link).toBeDefined();
    expect(mail.html).toContain('Confirm my email');
    const code = /enter this code: (\d{6})/.exec(mail.text ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const answer = await fetch(link!, { redirect: 'manual' });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toContain('#access_token=');
    expect((await server.client().sb.auth.signInWithPassword({ email, password: 'secret12' })).error).toBeNull();
  });

  it('sends password recovery mail whose code resets the password', async () => {
    const email = freshEmail('smtp-reset');
    await server.client().sb.auth.signUp({ email, password: 'secret12' });
    const confirm = /enter this code: (\d{6})/.exec((await mailTo(email)).text ?? '')![1]!;
    await server.client().sb.auth.verifyOtp({ email, token: confirm, type: 'signup' });
    await server.client().sb.auth.resetPasswordForEmail(email);
    await expect.poll(() => smtp.messages.filter((m) => JSON.stringify(m.to).includes(email)).length).toBe(2);
    const reset = await mailTo(email);
    expect(reset.subject).toBe('Reset your Parley password');
    const code = /enter this code: (\d{6})/.exec(reset.text ?? '')![1]!;
    const { sb } = server.client();
    expect((await sb.auth.verifyOtp({ email, token: code, type: 'recovery' })).error).toBeNull();
    expect((await sb.auth.updateUser({ password: 'brandnew1' })).error).toBeNull();
  });
});
