import type { Browser, Page } from 'playwright-core';
import { e2eServer, newPage } from './browser.ts';
import { signedInPage, storedAccessToken } from './e2e-auth.ts';
import { seriousAxeViolations } from './axe.ts';

// The axe-core audits of every page, on a desktop (accessibility.spec.ts) and on a phone
// (accessibility-phone.spec.ts): two files, so the two browser workers audit side by side.

/** Opens a page and waits until it has shown what it loads (its requests done, its content there). */
export async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForLoadState('networkidle');
  await page.locator('#main-content').waitFor();
}

/** axe-core's serious and critical findings on each page, by page: every list must be empty. */
async function auditPages(page: Page, urls: string[]): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {};
  for (const url of urls) {
    await open(page, url);
    found[url] = await seriousAxeViolations(page);
  }
  return found;
}
const clean = (urls: string[]) => Object.fromEntries(urls.map((url) => [url, []]));

const PUBLIC_PAGES = [
  '/',
  '/pricing',
  '/blog',
  '/help',
  '/guides',
  '/about',
  '/careers',
  '/contact',
  '/privacy',
  '/terms',
  '/auth',
  '/auth?tab=signup',
  // Opened without a recovery link or with an unknown invitation: each says so.
  '/reset-password',
  '/invite/no-such-invitation',
  '/demo',
  '/no/such/page',
];

/** axe-core's serious findings on every public page, by page, and what a clean result would be. */
export async function auditPublicPages(browser: Browser, viewport?: { width: number; height: number }) {
  const { context, page } = await newPage(browser, e2eServer().baseUrl, viewport);
  try {
    return { found: await auditPages(page, PUBLIC_PAGES), clean: clean(PUBLIC_PAGES) };
  } finally {
    await context.close();
  }
}

/**
 * axe-core's serious findings on every page of the app (a meeting and a shared one included), and on
 * each tab of Settings, which keeps its tabs in the page; with what clean results would be.
 */
export async function auditAppPages(browser: Browser, viewport?: { width: number; height: number }) {
  const { context, page } = await signedInPage(browser, { viewport });
  try {
    const meetingHref = (await page.getByRole('table').getByRole('link', { name: 'Weekly Team Standup' }).getAttribute('href'))!;
    const shared = await page.request.post(`${e2eServer().baseUrl}/api/v1${meetingHref}/share`, {
      headers: { authorization: `Bearer ${await storedAccessToken(page)}` },
    });
    const { token } = (await shared.json()) as { token: string };
    const pages = [
      '/dashboard',
      '/record',
      '/history',
      meetingHref,
      '/insights?tab=topics',
      '/insights?tab=sentiment',
      '/insights?tab=participation',
      '/insights?tab=action-items',
      '/insights?tab=decisions',
      '/analytics',
      '/team',
      '/status',
      '/settings/api',
      `/shared/${token}`,
    ];
    const pagesFound = await auditPages(page, pages);
    await open(page, '/settings');
    const settings: Record<string, string[]> = {};
    for (const tab of await page.getByRole('tablist').getByRole('tab').allTextContents()) {
      await page.getByRole('tab', { name: tab, exact: true }).click();
      await page.getByRole('tabpanel', { name: tab }).waitFor();
      await page.waitForLoadState('networkidle');
      settings[tab] = await seriousAxeViolations(page);
    }
    return {
      found: pagesFound,
      clean: clean(pages),
      settings,
      cleanSettings: Object.fromEntries(Object.keys(settings).map((tab) => [tab, []])),
    };
  } finally {
    await context.close();
  }
}
