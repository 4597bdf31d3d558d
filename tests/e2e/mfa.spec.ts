import * as OTPAuth from 'otpauth';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eServer, launchBrowser, newPage, uniqueEmail } from '#tests/support/browser.ts';
import { signIn, signOut, signUp, toast } from '#tests/support/e2e-auth.ts';
import { fetchAnonKey, testClient } from '#tests/support/supabase-client.ts';

// Two-factor sign-in in the browser: an account with an authenticator app signs in with its
// password, is asked for the code (and kept from every signed-in page until then), and is in once
// the code is right. The authenticator is set up through supabase-js, as an app with MFA settings would.

const { baseUrl } = e2eServer();
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

async function addAuthenticator(account: { email: string; password: string }): Promise<string> {
  const { sb } = testClient(baseUrl, await fetchAnonKey(baseUrl));
  const signedIn = await sb.auth.signInWithPassword(account);
  if (signedIn.error) throw signedIn.error;
  const factor = (await sb.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' })).data!;
  const secret = factor.totp.secret;
  const verified = await sb.auth.mfa.challengeAndVerify({ factorId: factor.id, code: code(secret) });
  if (verified.error) throw verified.error;
  return secret;
}

const code = (secret: string) => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate();

describe('two-factor sign-in', () => {
  it('asks for the authenticator code after the password, keeps the dashboard shut until it is right, then welcomes', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    const account = { fullName: 'Hedy Lamarr', email: uniqueEmail('hedy'), password: 'frequency1' };
    await signUp(page, account);
    const secret = await addAuthenticator(account);
    await signOut(page);
    await page.waitForURL(`${baseUrl}/`);

    await signIn(page, account);
    await page.getByText('Two-factor verification').waitFor();
    await page.getByText('Enter the 6-digit code from your authenticator app.').waitFor();
    expect(await toast(page, 'Welcome back!').count()).toBe(0);

    // A signed-in page is not reachable with the password alone: back to the code prompt.
    await page.goto('/dashboard');
    await page.waitForURL(/\/auth$/);
    await page.getByLabel('Authentication code').waitFor();

    const right = code(secret);
    await page.getByLabel('Authentication code').fill(right === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await toast(page, 'Invalid code. Please try again.').waitFor();

    await page.getByLabel('Authentication code').fill(code(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await toast(page, 'Welcome back!').waitFor();
    await page.waitForURL(/\/dashboard$/);
    await page.getByRole('heading', { name: /Hedy/ }).first().waitFor();
    await context.close();
  });
});
