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

describe('time zones', () => {
  it('a first visit takes the browser’s zone: Settings › Profile shows it among every zone, the spec’s four first, and exports print in it', async () => {
    const { context, page } = await signedInPage(browser, { timezoneId: 'Europe/Berlin' });
    await page.goto('/settings');
    const select = page.getByRole('combobox', { name: 'Timezone' });
    await expect.poll(() => select.textContent()).toBe('Europe/Berlin');

    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await select.click();
    const options = await page.getByRole('option').allTextContents();
    expect(options.slice(0, 4)).toEqual(['Pacific Time', 'Mountain Time', 'Central Time', 'Eastern Time']);
    expect(options.length).toBeGreaterThan(300);
    expect(options).toContain('Asia/Tokyo');
    expect(options).toContain('America/Sao Paulo');
    await page.keyboard.press('Escape');

    // The server has it too: a meeting's export prints its date in Berlin time.
    const meetings = await callApi<{ items: { id: string; startedAt: string }[] }>(page, 'GET', '/api/v1/meetings');
    const meeting = meetings.items[0]!;
    const exported = async () =>
      (
        await fetch(`${baseUrl}/api/v1/meetings/${meeting.id}/export?format=md`, {
          headers: { authorization: `Bearer ${await storedAccessToken(page)}` },
        })
      ).text();
    const berlin = new Intl.DateTimeFormat('en-US', {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'short',
      timeZone: 'Europe/Berlin',
    }).format(new Date(meeting.startedAt));
    await expect.poll(exported).toContain(berlin);
    await context.close();
  });

  it('a browser in Denver starts on the spec’s Mountain Time; the person may pick any zone', async () => {
    const { context, page } = await signedInPage(browser, { timezoneId: 'America/Denver' });
    await page.goto('/settings');
    const select = page.getByRole('combobox', { name: 'Timezone' });
    await expect.poll(() => select.textContent()).toBe('Mountain Time');
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await select.click();
    await page.getByRole('option', { name: 'Asia/Tokyo', exact: true }).click();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Profile updated successfully').waitFor();
    await page.reload();
    await expect.poll(() => select.textContent()).toBe('Asia/Tokyo');
    await context.close();
  });
});
