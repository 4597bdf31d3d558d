import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eServer, launchBrowser, newPage, uniqueEmail } from '#tests/support/browser.ts';
import { fillSignUp, signedInPage, signIn, signOut, signUp, storedTokenStatus, submitSignUp, toast } from '#tests/support/e2e-auth.ts';
import { outbox } from '#tests/support/supabase-client.ts';

const { baseUrl, dataDir } = e2eServer();
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

describe('accounts in the browser', () => {
  it('Forgot password? emails a link whose page sets a new password and signs the person in; the link works once', async () => {
    const account = { fullName: 'Hedy Lamarr', email: uniqueEmail('hedy'), password: 'frequency1' };
    const { context: other, page: otherDevice } = await signedInPage(browser, account);

    const { context, page } = await newPage(browser, baseUrl);
    await page.goto('/auth');
    await page.getByLabel('Email').fill(account.email);
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    expect(await page.getByLabel('Email').inputValue()).toBe(account.email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await toast(page, 'Check your email for a link to reset your password.').waitFor();

    await expect.poll(() => outbox(dataDir, account.email).filter((m) => m.kind === 'recovery').length).toBe(1);
    const link = outbox(dataDir, account.email).find((m) => m.kind === 'recovery')!.link;
    await page.goto(link);
    await page.waitForURL(/\/reset-password/);
    await page.getByText(`For ${account.email}`, { exact: false }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill('spread-spectrum1');
    await page.getByLabel('Confirm new password').fill('spread-spectrum2');
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await page.getByText('Passwords do not match.').waitFor();
    await page.getByLabel('Confirm new password').fill('spread-spectrum1');
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await toast(page, 'Your password has been changed').waitFor();
    await page.waitForURL(/\/dashboard$/);
    await page.getByRole('heading', { name: /Hedy/ }).first().waitFor();

    // The other device was signed out; the old password no longer works, the new one does.
    expect(await storedTokenStatus(otherDevice)).toBe(401);
    await other.close();
    const { context: third, page: thirdDevice } = await newPage(browser, baseUrl);
    await signIn(thirdDevice, { email: account.email, password: account.password });
    await thirdDevice.getByText('Invalid email or password. Please try again.').first().waitFor();
    await signIn(thirdDevice, { email: account.email, password: 'spread-spectrum1' });
    await thirdDevice.waitForURL(/\/dashboard$/);
    await third.close();

    // The link was used up: a second visit says so.
    const { context: again, page: later } = await newPage(browser, baseUrl);
    await later.goto(link);
    await later.getByText('This reset link has expired or has already been used. Ask for a new one.').waitFor();
    await again.close();
    await context.close();
  });

  it('sign up lands on the dashboard, welcomed by name', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await signUp(page, { fullName: 'Ada Lovelace', email: uniqueEmail('ada'), password: 'analytical1' });
    // This server confirms accounts at once (no email service): nothing to check in an inbox.
    await toast(page, 'Account created! You are signed in.').waitFor();
    await page.getByRole('heading', { name: /Ada/ }).first().waitFor();
    await context.close();
  });

  it('sign out returns to the landing page, and signing back in says welcome back', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    const account = { fullName: 'Grace Hopper', email: uniqueEmail('grace'), password: 'compiler1' };
    await signUp(page, account);
    await signOut(page);
    await toast(page, 'Signed out successfully').waitFor();
    await page.waitForURL(`${baseUrl}/`);
    await signIn(page, account);
    await toast(page, 'Welcome back!').waitFor();
    await page.waitForURL(/\/dashboard$/);
    await context.close();
  });

  it('a wrong password shows the spec message and stays on /auth', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    const account = { fullName: 'Alan Turing', email: uniqueEmail('alan'), password: 'enigma123' };
    await signUp(page, account);
    await signOut(page);
    await page.waitForURL(`${baseUrl}/`);
    await signIn(page, { email: account.email, password: 'wrong-password' });
    await toast(page, 'Invalid email or password. Please try again.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/auth');
    await context.close();
  });

  it('a duplicate account is refused with the spec message', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    const account = { fullName: 'Katherine Johnson', email: uniqueEmail('kj'), password: 'orbital12' };
    await signUp(page, account);
    await signOut(page);
    await page.waitForURL(`${baseUrl}/`);
    await fillSignUp(page, account);
    await submitSignUp(page);
    await toast(page, 'An account with this email already exists. Please sign in instead.').waitFor();
    await context.close();
  });

  it('a short password is refused in the browser and nothing is sent', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    const authRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/auth/v1/signup')) authRequests.push(request.url());
    });
    const email = uniqueEmail('short');
    await fillSignUp(page, { fullName: 'Shorty', email, password: '12345' });
    await submitSignUp(page);
    await page.getByText('Password must be at least 6 characters long.').first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/auth');
    // The same form with a long enough password sends its one request: a request from the refused
    // submit would have gone before it (both go through the same client), so none was sent.
    await page.getByRole('tabpanel', { name: 'Sign Up' }).getByLabel('Password', { exact: true }).fill('123456');
    const signUpRequest = page.waitForRequest((request) => request.url().includes('/auth/v1/signup'));
    await submitSignUp(page);
    expect((await signUpRequest).postDataJSON()).toMatchObject({ email, password: '123456' });
    expect(authRequests).toHaveLength(1);
    await context.close();
  });

  it('a guarded page redirects a signed-out visitor to /auth, replacing the history entry', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await page.goto('/pricing');
    await page.goto('/settings');
    await page.waitForURL(`${baseUrl}/auth`);
    // Back skips the guarded URL entirely: /settings was replaced by /auth.
    await page.goBack();
    await page.waitForURL(`${baseUrl}/pricing`);
    await context.close();
  });

  it('a signed-in user visiting /auth goes to the dashboard', async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Barbara Liskov', email: uniqueEmail('bl'), password: 'substitution1' });
    await page.goto('/auth');
    await page.waitForURL(/\/dashboard$/);
    await context.close();
  });
});
