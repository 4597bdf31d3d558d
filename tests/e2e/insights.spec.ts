import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, uniqueEmail } from '#tests/support/browser.ts';
import { signedInPage } from '#tests/support/e2e-auth.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

describe('insights and analytics from a new account’s meetings', () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    ({ context, page } = await signedInPage(browser, { fullName: 'Grace Hopper', email: uniqueEmail('insights'), password: 'compiler1' }));
  });
  afterAll(async () => {
    await context.close();
  });

  it('shows the four tabs of /insights built from the sample meetings, then Decisions', async () => {
    await page.goto('/insights');
    await page.getByRole('heading', { name: 'AI Insights' }).waitFor();
    const tabs = await page.getByRole('tab').allTextContents();
    expect(tabs).toEqual(['Topics', 'Sentiment', 'Participation', 'Action Items', 'Decisions']);

    // Topics (the default tab): most discussed first, with where it was last discussed.
    const topics = page.getByRole('list', { name: 'Topics' });
    await topics.waitFor();
    const first = topics.getByRole('listitem').first();
    expect(await first.textContent()).toContain('Mobile app');
    expect(await first.textContent()).toContain('2 meetings');
    await first.getByRole('link', { name: 'Product Roadmap Review' }).waitFor();

    // Sentiment: the overall mix and a chart.
    await page.getByRole('tab', { name: 'Sentiment' }).click();
    await page.getByRole('img', { name: 'Sentiment by meeting chart' }).locator('svg').first().waitFor();
    await page
      .getByText(/of \d+ speaker turns/)
      .first()
      .waitFor();
    await page.getByRole('list', { name: 'Sentiment by speaker' }).getByText('Sarah Miller').waitFor();
    expect(new URL(page.url()).searchParams.get('tab')).toBe('sentiment');

    // Participation: talk time per named person.
    await page.getByRole('tab', { name: 'Participation' }).click();
    const table = page.getByRole('table', { name: 'Participation' });
    await table.getByRole('cell', { name: 'Sarah Miller' }).waitFor();
    expect(await table.getByRole('row').count()).toBeGreaterThan(5);

    // Action items: assignee team, due label and source meeting (spec §2); tracker.spec.ts covers the rest.
    await page.getByRole('tab', { name: 'Action Items' }).click();
    const item = page.getByRole('list', { name: 'Action items' }).getByRole('listitem', { name: 'Get production credentials for the new API gateway' });
    await item.getByText('Platform Team').waitFor();
    await item.getByText(/^Due: /).waitFor();
    await item.getByRole('link', { name: 'Weekly Team Standup' }).click();
    await page.waitForURL(/\/meetings\/[0-9a-f-]{36}\?t=\d+$/);
    await page.getByRole('heading', { name: 'Weekly Team Standup' }).waitFor();

    // Back on the Action Items tab after a reload of the deep link.
    await page.goto('/insights?tab=action-items');
    await page.getByRole('tab', { name: 'Action Items', selected: true }).waitFor();
  });

  it('charts meeting time, counts and talk time on /analytics, from the dashboard', async () => {
    await page.goto('/dashboard');
    await page.getByRole('link', { name: /View Analytics/ }).click();
    await page.waitForURL(/\/analytics$/);
    await page.getByRole('heading', { name: 'Analytics' }).waitFor();
    for (const chart of ['Meeting time chart', 'Meetings chart', 'Talk time chart']) {
      await page.getByRole('img', { name: chart }).locator('svg').first().waitFor();
    }
    await page.getByText('Meetings', { exact: true }).first().waitFor();
    await page.getByText('4h 22m', { exact: true }).waitFor(); // 262 sample minutes

    await page.getByRole('combobox', { name: 'Period' }).click();
    await page.getByRole('option', { name: 'Last 4 weeks' }).click();
    await page.waitForURL(/weeks=4/);
    await page.getByText('4h 22m', { exact: true }).waitFor();
  });

  it('says so plainly when there are no meetings', async () => {
    await page.goto('/dashboard');
    await page.getByRole('button', { name: /Remove sample meetings/ }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /Remove/ })
      .click();
    await page.getByText('No meetings recorded yet.').waitFor();
    await page.goto('/insights');
    await page.getByText('No meetings yet').waitFor();
    await page.getByRole('link', { name: 'Record your first meeting' }).waitFor();
  });
});
