import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, uniqueEmail } from '#tests/support/browser.ts';
import { signedInPage, toast } from '#tests/support/e2e-auth.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

/** The sample meetings' action items, newest meeting first (sample-meetings.ts). */
const SAMPLE_ITEMS = [
  'Get production credentials for the new API gateway',
  'Finish the regression suite for the billing screens',
  'Schedule five customer interviews about the mobile scope',
  'Send the user list for the import',
  'Configure single sign-on for Acme',
  'Contrast pass on dark mode',
  'Run a win-back campaign for churned small teams',
  'Review the pricing of the small-team plans',
  'List the ten flakiest tests before the first fix-it day',
];

const SAMPLE_DECISIONS = [
  'Release the onboarding flow on Friday.',
  'Q3 priorities: the mobile app first, then the integrations marketplace.',
  'The analytics dashboards move to Q4.',
  'Weekly check-ins on Tuesdays until go-live.',
  'Navigation moves to a bottom bar on mobile.',
  'A fix-it day every second Friday for flaky tests and tooling.',
];

/** The rows of a list by their names (each row is named by its text), once it is not loading. */
async function rowsOf(page: Page, list: 'Action items' | 'Decisions'): Promise<string[]> {
  const locator = page.getByRole('list', { name: list, exact: true });
  await expect.poll(() => locator.getAttribute('aria-busy')).toBe('false');
  return locator
    .locator(':scope > li')
    .evaluateAll((rows) => rows.map((row) => document.getElementById(row.getAttribute('aria-labelledby') ?? '')?.textContent ?? ''));
}

const statusFilter = (page: Page, name: string) => page.getByRole('group', { name: 'Status' }).getByRole('button', { name: new RegExp(`^${name} \\d+$`) });

describe('the action-item tracker and the decision register', () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    ({ context, page } = await signedInPage(browser, { fullName: 'Margaret Hamilton', email: uniqueEmail('tracker'), password: 'apollo11!' }));
  });
  afterAll(async () => {
    await context.close();
  });

  it('lists a new account’s sample action items, each with its owner, due date and a link to the moment it was said', async () => {
    await page.goto('/insights');
    await page.getByRole('tab', { name: 'Action Items' }).click();
    await page.waitForURL(/tab=action-items/);
    await expect.poll(() => rowsOf(page, 'Action items')).toEqual(SAMPLE_ITEMS);
    expect(await statusFilter(page, 'Open').textContent()).toBe('Open 9');
    expect(await statusFilter(page, 'Open').getAttribute('aria-pressed')).toBe('true');

    const credentials = page.getByRole('listitem', { name: SAMPLE_ITEMS[0] });
    await credentials.getByText('Platform Team').waitFor();
    await credentials.getByText(/^Due: \w{3}, \w{3} \d{1,2}, \d{4}$/).waitFor();
    const link = credentials.getByRole('link', { name: 'Weekly Team Standup' });
    expect(await link.getAttribute('href')).toMatch(/^\/meetings\/[0-9a-f-]{36}\?t=\d+$/);
    await link.click();
    await page.waitForURL(/\/meetings\/[0-9a-f-]{36}\?t=\d+$/);
    await page.getByRole('heading', { name: 'Weekly Team Standup' }).waitFor();
  });

  it('ticks an item done from the list (with the keyboard), and it stays done after a reload', async () => {
    await page.goto('/insights?tab=action-items');
    await expect.poll(() => rowsOf(page, 'Action items')).toEqual(SAMPLE_ITEMS);
    const box = page.getByRole('checkbox', { name: 'Send the user list for the import' });
    await box.focus();
    await page.keyboard.press('Space');
    await toast(page, 'Action item done').waitFor();
    await expect.poll(() => rowsOf(page, 'Action items')).toEqual(SAMPLE_ITEMS.filter((text) => text !== 'Send the user list for the import'));
    expect(await statusFilter(page, 'Done').textContent()).toBe('Done 1');

    await statusFilter(page, 'Done').click();
    await page.waitForURL(/status=done/);
    await page.reload();
    await expect.poll(() => rowsOf(page, 'Action items')).toEqual(['Send the user list for the import']);
    expect(await page.getByRole('checkbox', { name: 'Send the user list for the import' }).getAttribute('aria-checked')).toBe('true');
    expect(await statusFilter(page, 'Done').getAttribute('aria-pressed')).toBe('true');
  });

  it('filters by owner and by meeting, in the URL, and clears the filters', async () => {
    await page.goto('/insights?tab=action-items');
    await expect.poll(async () => (await rowsOf(page, 'Action items')).length).toBe(8);

    await page.getByLabel('Owner').selectOption('Customer Success Team');
    await page.waitForURL(/owner=Customer\+Success\+Team/);
    await expect.poll(() => rowsOf(page, 'Action items')).toEqual(['Configure single sign-on for Acme']);

    await page.getByLabel('Owner').selectOption('');
    const retro = await page.getByLabel('Meeting').locator('option', { hasText: 'Engineering Retrospective' }).getAttribute('value');
    await page.getByLabel('Meeting').selectOption(retro!);
    await page.waitForURL(new RegExp(`meeting=${retro}`));
    await expect.poll(() => rowsOf(page, 'Action items')).toEqual(['List the ten flakiest tests before the first fix-it day']);

    await page.getByLabel('Owner').selectOption('unassigned');
    await page.getByText('No open action items.').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(async () => (await rowsOf(page, 'Action items')).length).toBe(8);
    expect(new URL(page.url()).search).toBe('?tab=action-items');
  });

  it('lists every decision in the Decisions tab and searches them as you type, keeping the search in the URL', async () => {
    await page.goto('/insights?tab=action-items');
    await page.getByRole('tab', { name: 'Decisions' }).click();
    await page.waitForURL(/tab=decisions$/);
    await expect.poll(() => rowsOf(page, 'Decisions')).toEqual(SAMPLE_DECISIONS);
    const release = page.getByRole('listitem', { name: SAMPLE_DECISIONS[0] });
    expect(await release.getByRole('link', { name: 'Weekly Team Standup' }).getAttribute('href')).toMatch(/^\/meetings\/[0-9a-f-]{36}\?t=\d+$/);

    const search = page.getByRole('searchbox', { name: 'Search decisions' });
    await search.fill('mobile');
    await page.waitForURL(/[?&]q=mobile/);
    // "mobile" is in both decisions' words; the Design Critique's title says "Mobile App" too.
    await expect.poll(() => rowsOf(page, 'Decisions')).toEqual([SAMPLE_DECISIONS[1], SAMPLE_DECISIONS[4]]);
    await page.reload();
    expect(await page.getByRole('searchbox', { name: 'Search decisions' }).inputValue()).toBe('mobile');
    await expect.poll(() => rowsOf(page, 'Decisions')).toEqual([SAMPLE_DECISIONS[1], SAMPLE_DECISIONS[4]]);

    await page.getByRole('searchbox', { name: 'Search decisions' }).fill('zebra');
    await page.getByText('No decisions match “zebra”.').waitFor();
    await page.getByRole('button', { name: 'Show all decisions' }).click();
    await expect.poll(() => rowsOf(page, 'Decisions')).toEqual(SAMPLE_DECISIONS);
  });
});
