import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, PHONE } from '#tests/support/browser.ts';
import { signedInPage } from '#tests/support/e2e-auth.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

/** How wide the page is: more than the viewport means the person can scroll it sideways. */
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe('a 375 px phone', () => {
  it('never scrolls sideways: dashboard, history, a meeting and settings fit the screen', async () => {
    const { context, page } = await signedInPage(browser, { viewport: PHONE });
    // The dashboard's recent-meetings table (three samples, long titles) is what made the page 428 px wide.
    const recent = page.getByRole('table');
    await recent.getByRole('link', { name: 'Weekly Team Standup' }).waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    // The table fits its card rather than scrolling inside it: every title and length is on screen.
    const container = page.locator('[data-slot="table-container"]');
    expect(await container.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);

    await page.goto('/history');
    await page.getByRole('list', { name: 'Meetings' }).getByRole('listitem').first().waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);

    await page
      .getByRole('link', { name: /View Details/ })
      .first()
      .click();
    await page.waitForURL(/\/meetings\/[0-9a-f-]{36}$/);
    await page.getByRole('list', { name: 'Transcript' }).getByRole('listitem').first().waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);

    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Profile' }).waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await context.close();
  });

  it('shows every Settings tab, Billing included, and opens Billing with a tap', async () => {
    const { context, page } = await signedInPage(browser, { viewport: PHONE });
    await page.goto('/settings');
    const tabs = page.getByRole('tablist');
    await tabs.getByRole('tab', { name: 'Profile' }).waitFor();
    // Every tab lies wholly inside the screen: none is cut off at the edge or hidden past it.
    for (const tab of await tabs.getByRole('tab').all()) {
      const box = (await tab.boundingBox())!;
      expect(box.x, (await tab.textContent()) ?? '').toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, (await tab.textContent()) ?? '').toBeLessThanOrEqual(PHONE.width);
    }
    const billing = tabs.getByRole('tab', { name: 'Billing' });
    await billing.click();
    await page.getByText('Subscription Plan').waitFor();
    expect(await billing.getAttribute('aria-selected')).toBe('true');
    await context.close();
  });

  it('Home in the bottom bar stays in the app: it is the dashboard', async () => {
    const { context, page } = await signedInPage(browser, { viewport: PHONE });
    await page.goto('/history');
    const bottomBar = page.getByRole('navigation', { name: 'Bottom' });
    await bottomBar.getByRole('link', { name: 'Home', exact: true }).click();
    await page.waitForURL(/\/dashboard$/);
    await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
    expect(await bottomBar.isVisible()).toBe(true);
    await context.close();
  });
});
