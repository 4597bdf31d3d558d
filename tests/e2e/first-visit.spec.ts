import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eServer, launchBrowser, newPage, uniqueEmail } from '#tests/support/browser.ts';
import { signedInPage, signIn, signOut, signUp, toast } from '#tests/support/e2e-auth.ts';

const { baseUrl } = e2eServer();
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

describe('a first visit', () => {
  it('Get Started opens the Sign Up form, and a new account is welcomed (not welcomed back) without being told to check its email', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await page.goto('/');
    await page.getByRole('banner').getByRole('link', { name: 'Get Started' }).click();
    await page.waitForURL(/\/auth\?tab=signup$/);
    await page.getByRole('tabpanel', { name: 'Sign Up' }).getByLabel('Full Name').waitFor();
    expect(await page.getByRole('tab', { name: 'Sign Up' }).getAttribute('aria-selected')).toBe('true');

    const account = { fullName: 'Ada Lovelace', email: uniqueEmail('first'), password: 'analytical1' };
    await signUp(page, account);
    await page.getByRole('heading', { name: 'Welcome to Parley, Ada!' }).waitFor();
    await toast(page, 'Account created! You are signed in.').waitFor();
    expect(await page.getByText(/check your email/i).count()).toBe(0);
    expect(await page.getByText(/welcome back/i).count()).toBe(0);
    // The sample meetings, set up by a job moments after the sign-up, fill Recent meetings (the card
    // says they are being set up meanwhile, rather than that there are none).
    const recent = page.getByText('Recent meetings', { exact: true }).locator('xpath=ancestor::*[@data-slot="card"][1]');
    await recent.getByText('Sample', { exact: true }).first().waitFor();
    expect(await recent.getByRole('link').count()).toBe(3);
    expect(await recent.getByText('No meetings recorded yet.').count()).toBe(0);

    // Coming back later is a return: signed in again, the same person is welcomed back.
    await signOut(page);
    await page.waitForURL(`${baseUrl}/`);
    await signIn(page, account);
    await page.waitForURL(/\/dashboard$/);
    await page.getByRole('heading', { name: 'Welcome back, Ada!' }).waitFor();
    await context.close();
  });

  it('"Start your free trial" opens Sign Up too; the Sign In link opens Sign In', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await page.goto('/');
    await page.getByRole('main').getByRole('link', { name: 'Start your free trial' }).first().click();
    await page.waitForURL(/\/auth\?tab=signup$/);
    expect(await page.getByRole('tab', { name: 'Sign Up' }).getAttribute('aria-selected')).toBe('true');
    await page.goto('/');
    await page.getByRole('banner').getByRole('link', { name: 'Sign In' }).click();
    await page.waitForURL(/\/auth$/);
    expect(await page.getByRole('tab', { name: 'Sign In' }).getAttribute('aria-selected')).toBe('true');
    await context.close();
  });

  it('a failed sign-in’s error does not follow the person to the dashboard once they get in', async () => {
    const account = { fullName: 'Alan Turing', email: uniqueEmail('retry'), password: 'enigma123' };
    (await signedInPage(browser, account)).context.close();
    const { context, page } = await newPage(browser, baseUrl);
    await signIn(page, { email: account.email, password: 'wrong-password' });
    const failure = toast(page, 'Invalid email or password. Please try again.');
    await failure.waitFor();
    const panel = page.getByRole('tabpanel', { name: 'Sign In' });
    await panel.getByLabel('Password', { exact: true }).fill(account.password);
    await panel.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(/\/dashboard$/);
    await toast(page, 'Welcome back!').waitFor();
    expect(await failure.count()).toBe(0);
    await context.close();
  });

  it('the dashboard’s upcoming features do not list live transcription or team workspaces, which already exist', async () => {
    const { context, page } = await signedInPage(browser);
    const upcoming = page.getByText('Upcoming features').locator('xpath=ancestor::*[@data-slot="card"][1]');
    await upcoming.getByRole('listitem').first().waitFor();
    const features = await upcoming.getByRole('listitem').allTextContents();
    expect(features.length).toBeGreaterThan(0);
    for (const feature of features) expect(feature).not.toMatch(/live|real-time|transcri|workspace/i);
    // …because it is on the record page today.
    await page.goto('/record');
    await page
      .getByText(/live transcri/i)
      .first()
      .waitFor();
    await context.close();
  });
});
