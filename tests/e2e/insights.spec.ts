import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseOption, e2eServer, launchBrowser, uniqueEmail } from '#tests/support/browser.ts';
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
    // The account holds only the six samples (262 minutes): they stay out of the totals, and the page says so.
    await page.getByText('No meetings of your own in the last 12 weeks: the charts fill in as you record (the sample meetings are not counted).').waitFor();
    expect(await page.getByText('4h 22m', { exact: true }).count()).toBe(0);
    await page.getByText('0 s (0%)', { exact: true }).waitFor(); // talk time

    await chooseOption(page, page.getByRole('combobox', { name: 'Period' }), 'Last 4 weeks');
    await page.waitForURL(/weeks=4/);
    await page.getByText(/^No meetings of your own in the last 4 weeks/).waitFor();
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

/** Fourteen people, the first talking longest: more than one page of the chart (ten) and more than the old cap (twelve). */
const PEOPLE = ['Ada', 'Ben', 'Cleo', 'Dev', 'Eli', 'Fay', 'Gus', 'Hana', 'Ivo', 'Jun', 'Kai', 'Lea', 'Max', 'Nia'];
const ALL_HANDS_VTT = [
  'WEBVTT',
  ...PEOPLE.map((name, i) => {
    const start = i * 20;
    const clock = (s: number) => `00:${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}.000`;
    return `${clock(start)} --> ${clock(start + 15 - i)}\n<v ${name}>Hello from ${name}.`;
  }),
].join('\n\n');

describe('participation with many speakers', () => {
  it('charts every speaker a page at a time, each bar named, and lists them all', async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Pia Paging', email: uniqueEmail('participation'), password: 'paging123' });
    const token = await page.evaluate(() => {
      const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'));
      return key ? (JSON.parse(localStorage.getItem(key)!) as { access_token: string }).access_token : '';
    });
    const headers = { authorization: `Bearer ${token}` };
    const { baseUrl } = e2eServer();
    expect((await page.request.delete(`${baseUrl}/api/v1/meetings/samples`, { headers })).status()).toBe(200);
    const imported = await page.request.post(`${baseUrl}/api/v1/meetings/imports`, { headers, data: { fileName: 'All hands.vtt', content: ALL_HANDS_VTT } });
    expect(imported.status()).toBe(201);

    await page.goto('/insights?tab=participation');
    const chart = page.getByRole('img', { name: /^Talk time chart/ });
    // The axis labels drawn in the chart: the names beside the bars (the minutes axis aside).
    const ticks = chart.locator('.recharts-cartesian-axis-tick-value');
    const names = async () => (await ticks.allTextContents()).filter((text) => !text.endsWith(' min'));
    await ticks.first().waitFor();
    await expect.poll(names).toEqual(PEOPLE.slice(0, 10));
    await page.getByText('Speakers 1–10 of 14').waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(names).toEqual(PEOPLE.slice(10));
    await page.getByText('Speakers 11–14 of 14').waitFor();
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);

    const table = page.getByRole('table', { name: 'Participation' });
    for (const name of PEOPLE) await table.getByRole('cell', { name, exact: true }).waitFor();
    expect(await table.getByRole('row').count()).toBe(PEOPLE.length + 1);
    await context.close();
  });
});
