import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedInvitation } from '#shared/contracts/teams.ts';
import { e2eServer, launchBrowser, newPage, uniqueEmail } from '#tests/support/browser.ts';
import { signedInPage, storedAccessToken, submitSignUp, toast } from '#tests/support/e2e-auth.ts';

// The rough edges a new person met on the way through the app (issue 34 item 6), each as they see it.

const { baseUrl } = e2eServer();
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

/** The API as the person signed in on this page (a test's setup, not its subject). */
async function callApi<T>(page: Page, method: string, url: string, body?: object): Promise<T> {
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers: { authorization: `Bearer ${await storedAccessToken(page)}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

describe('an emailed invitation', () => {
  it('opens Sign Up (and Sign In) with the invited address filled in, and the new account joins', { timeout: 60_000 }, async () => {
    const owner = await signedInPage(browser, { fullName: 'Ines Inviter' });
    const team = await callApi<{ id: string }>(owner.page, 'POST', '/api/v1/teams', { name: 'Prefill crew' });
    const invited = uniqueEmail('invited');
    const invitation = await callApi<CreatedInvitation>(owner.page, 'POST', `/api/v1/teams/${team.id}/invitations`, { email: invited, role: 'member' });
    await owner.context.close();

    const { context, page } = await newPage(browser, baseUrl);
    await page.goto(new URL(invitation.url).pathname);
    await page.getByRole('heading', { name: 'Join Prefill crew' }).waitFor();
    await page.getByRole('button', { name: 'Create an account' }).click();
    const signUp = page.getByRole('tabpanel', { name: 'Sign Up' });
    await expect.poll(() => signUp.getByLabel('Email').inputValue()).toBe(invited);
    // The other tab has it too.
    await page.getByRole('tab', { name: 'Sign In' }).click();
    expect(await page.getByRole('tabpanel', { name: 'Sign In' }).getByLabel('Email').inputValue()).toBe(invited);
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    expect(await signUp.getByLabel('Email').inputValue()).toBe(invited);

    await signUp.getByLabel('Full Name').fill('Ivy Invited');
    await signUp.getByLabel('Password', { exact: true }).fill('invited123');
    await submitSignUp(page);
    await page.waitForURL((url) => url.pathname === new URL(invitation.url).pathname);
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await toast(page, 'You joined Prefill crew').waitFor();
    await context.close();
  });
});
