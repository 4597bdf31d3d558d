import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtChunk, e2eServer, launchBrowser, newPage, uniqueEmail } from '#tests/support/browser.ts';
import { signedInPage, toast } from '#tests/support/e2e-auth.ts';

const { baseUrl } = e2eServer();
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

describe('the meeting page', () => {
  it('shows a sample meeting and lets its owner rename speakers, correct lines and rename it; edits survive a reload', async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Mia Meeting', email: uniqueEmail('meeting'), password: 'meeting12' });
    await page.getByRole('link', { name: 'Weekly Team Standup' }).click();
    await page.waitForURL(/\/meetings\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { name: 'Weekly Team Standup' }).waitFor();
    const transcript = page.getByRole('list', { name: 'Transcript' });
    await transcript.getByText('Sarah Miller:').first().waitFor();
    await page.getByText('Get production credentials for the new API gateway').waitFor(); // an action item

    await page.getByRole('button', { name: 'Rename Sarah Miller' }).click();
    await page.getByLabel('Name for Speaker 2').fill('Sarah M.');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await transcript.getByText('Sarah M.:').first().waitFor();

    await page.getByRole('button', { name: 'Edit the line at 00:10' }).click();
    await page.getByLabel('Text of the line at 00:10').fill('The onboarding flow ships on Friday.');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await transcript.getByText('The onboarding flow ships on Friday.').waitFor();

    await page.getByRole('button', { name: 'Rename meeting' }).click();
    await page.getByLabel('Meeting title').fill('Monday standup');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('heading', { name: 'Monday standup' }).waitFor();

    await page.reload();
    await page.getByRole('heading', { name: 'Monday standup' }).waitFor();
    await transcript.getByText('The onboarding flow ships on Friday.').waitFor();
    expect(await transcript.getByText('Sarah M.:').count()).toBeGreaterThan(0);
    await context.close();
  });

  it('a meeting of someone else is not found', async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Nosy Neighbour', email: uniqueEmail('nosy'), password: 'neighbour1' });
    await page.goto('/meetings/00000000-0000-4000-8000-000000000000');
    await page.getByRole('heading', { name: 'Meeting not found' }).waitFor();
    await context.close();
  });
});

describe('the product tour', () => {
  it('/demo shows a sample meeting to a signed-out visitor', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await page.goto('/demo');
    await page.getByRole('heading', { name: 'Weekly Team Standup' }).waitFor();
    await page.getByRole('list', { name: 'Transcript' }).getByText('Alex Johnson:').first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/demo');
    await context.close();
  });
});

/** The signed-in page's access token, for setting up through the API what a test is not about. */
const accessToken = (page: Page) =>
  page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'));
    return key ? (JSON.parse(localStorage.getItem(key)!) as { access_token: string }).access_token : '';
  });

/** A usage-statistics row as the dashboard shows it: its label and figure. */
const usageRow = (page: Page, label: string) => page.getByText(label, { exact: true }).locator('..');

/** The chunk of components/ui/dialog.tsx, which the sample meetings' dialog loads after the first page: its own, or (other pages import it too) the shared one named after it. */
const dialogChunkFile = () => builtChunk(/components\/ui\/dialog\.tsx$|^_dialog-/);

/** The button that opens the sample meetings' dialog; found while the open dialog hides the page from the accessibility tree. */
const removeSamplesTrigger = (page: Page) => page.locator('button[aria-haspopup="dialog"]', { hasText: 'Remove sample meetings' });

describe('sample meetings', () => {
  it('stay removable from the dashboard and history however many newer meetings there are, and are not counted as usage', async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Nora Newer', email: uniqueEmail('samples-newer'), password: 'samples12' });
    await page.getByRole('table').getByText('Sample').first().waitFor();
    await page.getByText('Your own meetings; the sample meetings are not counted.', { exact: true }).waitFor();
    expect(await usageRow(page, 'Meetings transcribed').textContent()).toBe('Meetings transcribed0');
    expect(await usageRow(page, 'Hours recorded').textContent()).toBe('Hours recorded0');

    // Three meetings of her own, newer than every sample: the recent-meetings table no longer shows a sample.
    const token = await accessToken(page);
    for (const title of ['Budget', 'Hiring', 'Offsite']) {
      const imported = await page.request.post(`${baseUrl}/api/v1/meetings/imports`, {
        headers: { authorization: `Bearer ${token}` },
        data: { fileName: `${title}.txt`, content: `Nora: Let us talk about the ${title.toLowerCase()}.` },
      });
      expect(imported.status()).toBe(201);
    }
    await page.reload();
    const recent = page.getByRole('table');
    await recent.getByRole('link', { name: 'Offsite' }).waitFor();
    expect(await recent.getByText('Sample').count()).toBe(0);
    await page.getByRole('button', { name: 'Remove sample meetings' }).waitFor();
    await expect.poll(() => usageRow(page, 'Meetings transcribed').textContent()).toBe('Meetings transcribed3');

    await page.goto('/history');
    await page.getByRole('article', { name: 'Offsite', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Remove sample meetings' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('The 6 meetings badged “Sample” are deleted with their transcripts and insights. Your own meetings stay.').waitFor();
    await dialog.getByRole('button', { name: 'Remove sample meetings' }).click();
    await toast(page, '6 sample meetings removed').waitFor();
    await page.getByText('3 meetings', { exact: true }).waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Remove sample meetings' }).count()).toBe(0);
    await page.goto('/dashboard');
    await page.getByRole('table').getByRole('link', { name: 'Offsite' }).waitFor();
    expect(await page.getByRole('button', { name: 'Remove sample meetings' }).count()).toBe(0);
    expect(await page.getByText('Your own meetings; the sample meetings are not counted.', { exact: true }).count()).toBe(0);
    await context.close();
  });

  it('the dialog opens from the keyboard, and Escape closes it with the focus back on its button', async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Kai Keys', email: uniqueEmail('samples-keys'), password: 'samples12' });
    const trigger = removeSamplesTrigger(page);
    await trigger.focus();
    expect(await trigger.getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Remove the sample meetings?' }).waitFor();
    expect(await trigger.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => trigger.evaluate((button) => button === document.activeElement)).toBe(true);
    expect(await trigger.getAttribute('aria-expanded')).toBe('false');
    await context.close();
  });

  it('a dialog whose code cannot be downloaded says so and stays shut, and the next press loads it and opens it', async () => {
    const dialogChunk = dialogChunkFile();
    let failing = true;
    const { context, page } = await signedInPage(browser, {
      fullName: 'Otto Offline',
      email: uniqueEmail('samples-offline'),
      password: 'samples12',
      prepare: (ctx) => ctx.route(`**/${dialogChunk}`, (route) => (failing ? route.abort('internetdisconnected') : route.continue())),
    });
    const trigger = removeSamplesTrigger(page);
    await trigger.click();
    await toast(page, 'This dialog could not be downloaded. Check your connection and try again.').waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    // Shut, not waiting for the code: code that a prefetch brings later must not open it unasked.
    await expect.poll(() => trigger.getAttribute('aria-expanded')).toBe('false');
    failing = false;
    const prefetched = page.waitForResponse((response) => response.url().endsWith(dialogChunk));
    await trigger.blur();
    await trigger.focus();
    await prefetched;
    await page.waitForTimeout(300);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.keyboard.press('Enter');
    await page
      .getByRole('dialog')
      .getByText('The 6 meetings badged “Sample” are deleted with their transcripts and insights. Your own meetings stay.')
      .waitFor();
    await context.close();
  });

  it('are removed in one action from the dashboard, leaving the empty state', async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Sam Sample', email: uniqueEmail('samples'), password: 'samples12' });
    await page.getByText('Weekly Team Standup').first().waitFor();
    await page.getByRole('button', { name: 'Remove sample meetings' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove sample meetings' }).click();
    // The button's card goes with the samples; the toast still says what happened.
    await toast(page, '6 sample meetings removed').waitFor();
    await page.getByText('No meetings recorded yet.').waitFor();
    expect(await page.getByRole('link', { name: 'Record your first meeting' }).getAttribute('href')).toBe('/record');
    await context.close();
  });
});
