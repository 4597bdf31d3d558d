import fs from 'node:fs';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eServer, launchBrowser, uniqueEmail } from '#tests/support/browser.ts';
import { signedInPage, toast } from '#tests/support/e2e-auth.ts';

const { baseUrl } = e2eServer();
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

const SAMPLE_TITLES = [
  'Weekly Team Standup',
  'Product Roadmap Review',
  'Client Onboarding: Acme Corp',
  'Design Critique: Mobile App',
  'Quarterly Sales Review',
  'Engineering Retrospective',
];

const cards = (page: Page) => page.getByRole('list', { name: 'Meetings' }).getByRole('article');
const card = (page: Page, title: string) => page.getByRole('article', { name: title, exact: true });
/**
 * The titles on screen, once the list has settled on `count` cards. Polled for up to 10 s, not
 * expect.poll's 1 s: a first visit loads the app's shell and the session before the list is read,
 * which on a loaded machine takes longer than a second.
 */
async function titlesOnScreen(page: Page, count: number): Promise<string[]> {
  await expect.poll(() => cards(page).count(), { timeout: 10_000 }).toBe(count);
  await expect.poll(() => page.getByRole('list', { name: 'Meetings' }).getAttribute('aria-busy'), { timeout: 10_000 }).toBe('false');
  return cards(page).getByRole('heading', { level: 2 }).allTextContents();
}

async function openMenu(page: Page, title: string): Promise<Locator> {
  await card(page, title)
    .getByRole('button', { name: `Actions for ${title}` })
    .click();
  return page.getByRole('menu');
}

describe('meeting history', () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    ({ context, page } = await signedInPage(browser, { fullName: 'Katherine Johnson', email: uniqueEmail('history'), password: 'trajectory1' }));
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  });
  afterAll(async () => {
    await context.close();
  });

  it('a new account sees its six sample meetings as cards', async () => {
    await page.goto('/history');
    await page.getByRole('heading', { name: 'Meeting History' }).waitFor();
    expect((await titlesOnScreen(page, 6)).sort()).toEqual([...SAMPLE_TITLES].sort());
    const standup = card(page, 'Weekly Team Standup');
    await standup.getByText('Transcribed', { exact: true }).waitFor();
    await standup.getByText('Sample', { exact: true }).waitFor();
    await standup.getByText('32 min').waitFor();
    await standup.getByText(/Alex Johnson, Sarah Miller, David Chen, Emma Wilson/).waitFor();
    await standup.getByText(/the onboarding flow ships Friday/).waitFor();
    expect(await standup.getByRole('link', { name: /View Details/ }).getAttribute('href')).toMatch(/^\/meetings\/[0-9a-f-]{36}$/);
    const pagination = page.getByRole('navigation', { name: 'Pagination' });
    expect(await pagination.getByRole('link', { name: 'Page 1' }).getAttribute('aria-current')).toBe('page');
    expect(await pagination.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
  });

  it('search narrows the list, lives in the URL and survives a reload', async () => {
    await page.goto('/history');
    await page.getByRole('searchbox', { name: 'Search meetings' }).fill('roadmap');
    await page.waitForURL(/[?&]q=roadmap/);
    await expect.poll(() => titlesOnScreen(page, 1)).toEqual(['Product Roadmap Review']);
    await page.reload();
    expect(await page.getByRole('searchbox', { name: 'Search meetings' }).inputValue()).toBe('roadmap');
    expect(await titlesOnScreen(page, 1)).toEqual(['Product Roadmap Review']);
    // Transcript words are searched too.
    await page.getByRole('searchbox', { name: 'Search meetings' }).fill('gateway credentials');
    await page.waitForURL(/[?&]q=gateway\+credentials/);
    // Polled: the previous result (also one card) stays on screen until the new one arrives.
    await expect.poll(() => titlesOnScreen(page, 1)).toEqual(['Weekly Team Standup']);
    await page.getByRole('searchbox', { name: 'Search meetings' }).fill('zebra');
    await page.waitForURL(/[?&]q=zebra/);
    await page.getByText('No meetings found').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    expect(await titlesOnScreen(page, 6)).toHaveLength(6);
    expect(await page.getByRole('searchbox', { name: 'Search meetings' }).inputValue()).toBe('');
  });

  it('the date range and the filters narrow the list, and back restores it', async () => {
    await page.goto('/history');
    await titlesOnScreen(page, 6);
    const day = (await card(page, 'Engineering Retrospective').locator('time').getAttribute('datetime'))!.slice(0, 10);

    await page.getByRole('button', { name: 'Date Range' }).click();
    const range = page.getByRole('dialog', { name: 'Date range' });
    await range.getByLabel('From').fill(day);
    await range.getByLabel('To').fill(day);
    await range.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(new RegExp(`from=${day}&to=${day}`));
    expect(await titlesOnScreen(page, 1)).toEqual(['Engineering Retrospective']);
    await page.goBack();
    expect(await titlesOnScreen(page, 6)).toHaveLength(6);

    await page.getByRole('button', { name: 'Filters' }).click();
    const filters = page.getByRole('dialog', { name: 'Filters' });
    await filters.getByLabel('Participant').fill('sarah miller');
    await filters.getByRole('button', { name: 'Apply' }).click();
    expect((await titlesOnScreen(page, 2)).sort()).toEqual(['Product Roadmap Review', 'Weekly Team Standup']);

    await page.getByRole('button', { name: /Filters/ }).click();
    await page.getByRole('dialog', { name: 'Filters' }).getByLabel('Status').selectOption('processing');
    await page.getByRole('dialog', { name: 'Filters' }).getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/status=processing/);
    await page.getByText('No meetings found').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    expect(await titlesOnScreen(page, 6)).toHaveLength(6);
  });

  it('pages through the meetings with Previous, Next and page numbers', async () => {
    await page.goto('/history?pageSize=4');
    expect(await titlesOnScreen(page, 4)).toEqual(SAMPLE_TITLES.slice(0, 4));
    const pagination = page.getByRole('navigation', { name: 'Pagination' });
    await pagination.getByRole('link', { name: 'Next' }).click();
    await page.waitForURL(/page=2/);
    expect(await titlesOnScreen(page, 2)).toEqual(SAMPLE_TITLES.slice(4));
    expect(await pagination.getByRole('link', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page');
    expect(await pagination.getByRole('link', { name: 'Page 1' }).getAttribute('aria-current')).toBeNull();
    await page.reload();
    expect(await titlesOnScreen(page, 2)).toEqual(SAMPLE_TITLES.slice(4));
    await pagination.getByRole('link', { name: 'Previous' }).click();
    expect(await titlesOnScreen(page, 4)).toEqual(SAMPLE_TITLES.slice(0, 4));
    await pagination.getByRole('link', { name: 'Page 2' }).click();
    await page.goBack();
    expect(await titlesOnScreen(page, 4)).toEqual(SAMPLE_TITLES.slice(0, 4));
  });

  it('Download TXT saves the transcript as a file', async () => {
    await page.goto('/history');
    await titlesOnScreen(page, 6);
    const menu = await openMenu(page, 'Weekly Team Standup');
    await menu.getByRole('menuitem', { name: 'Download' }).click();
    const formats = page.getByRole('menu').last();
    expect(await formats.getByRole('menuitem').allTextContents()).toEqual(['TXT', 'MD', 'DOCX', 'PDF', 'SRT', 'VTT']);
    const [download] = await Promise.all([page.waitForEvent('download'), formats.getByRole('menuitem', { name: 'TXT' }).click()]);
    expect(download.suggestedFilename()).toBe('Weekly Team Standup.txt');
    const text = fs.readFileSync((await download.path())!, 'utf8');
    expect(text.split('\n')[0]).toBe('Weekly Team Standup');
    expect(text).toContain("[00:00] Alex Johnson: Good morning everyone. Let's go around quickly");
    expect(text).toContain('- [00:42] Finish the regression suite for the billing screens — Owner: QA Team · Due: ');
    await toast(page, 'Downloaded TXT').waitFor();
  });

  it('Download MD saves the notes and transcript as Markdown', async () => {
    await page.goto('/history');
    await titlesOnScreen(page, 6);
    const menu = await openMenu(page, 'Weekly Team Standup');
    await menu.getByRole('menuitem', { name: 'Download' }).click();
    const formats = page.getByRole('menu').last();
    const [download] = await Promise.all([page.waitForEvent('download'), formats.getByRole('menuitem', { name: 'MD' }).click()]);
    expect(download.suggestedFilename()).toBe('Weekly Team Standup.md');
    const text = fs.readFileSync((await download.path())!, 'utf8');
    expect(text.split('\n')[0]).toBe('# Weekly Team Standup');
    expect(text).toContain('## Action items');
    expect(text).toContain("`00:00` **Alex Johnson:** Good morning everyone. Let's go around quickly");
    await toast(page, 'Downloaded MD').waitFor();
  });

  it('Download PDF saves the notes and transcript as a PDF (made in the server’s document host process)', async () => {
    await page.goto('/history');
    await titlesOnScreen(page, 6);
    const menu = await openMenu(page, 'Weekly Team Standup');
    await menu.getByRole('menuitem', { name: 'Download' }).click();
    const formats = page.getByRole('menu').last();
    const [download] = await Promise.all([page.waitForEvent('download'), formats.getByRole('menuitem', { name: 'PDF' }).click()]);
    expect(download.suggestedFilename()).toBe('Weekly Team Standup.pdf');
    const pdf = new Uint8Array(fs.readFileSync((await download.path())!));
    const { text } = await extractText(await getDocumentProxy(pdf), { mergePages: true });
    const words = text.replace(/\s+/g, ' ');
    expect(words).toContain('Weekly Team Standup');
    expect(words).toContain('Action items');
    expect(words).toContain("[00:00] Alex Johnson: Good morning everyone. Let's go around quickly");
    await toast(page, 'Downloaded PDF').waitFor();
  });

  it('Share creates a link that opens a public page for anyone, until it is revoked', async () => {
    await page.goto('/history');
    await titlesOnScreen(page, 6);
    const menu = await openMenu(page, 'Product Roadmap Review');
    await menu.getByRole('menuitem', { name: 'Share', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Share meeting' });
    await dialog.getByText('No active links.').waitFor();
    await dialog.getByRole('button', { name: 'Create link' }).click();
    const url = await dialog.getByRole('textbox', { name: 'Share link' }).inputValue();
    expect(url).toMatch(new RegExp(`^${baseUrl}/shared/[A-Za-z0-9_-]{43}$`));
    await toast(page, 'Link copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    await expect.poll(() => dialog.getByRole('button', { name: /^Revoke link/ }).count()).toBe(1);

    // Someone without an account opens it.
    const visitor = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const guest = await visitor.newPage();
    await guest.goto(url);
    await guest.getByRole('heading', { name: 'Product Roadmap Review', level: 1 }).waitFor();
    await guest.getByTestId('logo').first().waitFor();
    await guest.getByRole('heading', { name: 'Summary' }).waitFor();
    await guest.getByRole('heading', { name: 'Insights' }).waitFor();
    await guest.getByText('Q3 priorities agreed: mobile app first, then the integrations marketplace.', { exact: false }).waitFor();
    // The notes, read-only, each with the moment it was said; an action item with its owner, due date and status.
    const actions = guest.getByRole('region', { name: 'Action items' });
    const interviews = actions.getByRole('listitem').filter({ hasText: 'Schedule five customer interviews about the mobile scope' });
    await interviews.getByText('00:58', { exact: true }).waitFor();
    await interviews.getByText(/^Product Team · Due Next week \(\w{3}, \w{3} \d{1,2}, \d{4}\) · Open$/).waitFor();
    await guest.getByRole('region', { name: 'Decisions' }).getByText('The analytics dashboards move to Q4.').waitFor();
    await guest.getByRole('region', { name: 'Topics' }).getByText('00:00–00:47', { exact: true }).waitFor();
    expect(await guest.getByRole('button', { name: /done|dismiss|edit/i }).count()).toBe(0);
    expect(await guest.getByRole('list', { name: 'Transcript' }).getByRole('listitem').count()).toBeGreaterThan(3);
    await guest.getByText('Sarah Miller', { exact: false }).first().waitFor();
    expect(await guest.content()).not.toContain('@example.com');
    expect(guest.url()).toBe(url); // no redirect to /auth: the page is public
    // An item's time takes the reader to the transcript line it cites.
    await interviews.getByRole('link', { name: 'Go to where this was said: 00:58' }).click();
    await expect.poll(() => guest.evaluate(() => document.querySelector(':target')?.closest('[aria-label="Transcript"]') !== null)).toBe(true);
    expect(await guest.evaluate(() => document.querySelector(':target')?.textContent?.slice(0, 5))).toBe('00:58');

    await dialog.getByRole('button', { name: /^Revoke link/ }).click();
    await toast(page, 'Link revoked').waitFor();
    await dialog.getByText('No active links.').waitFor();
    await guest.reload();
    await guest.getByRole('heading', { name: 'This link is no longer available' }).waitFor();
    await visitor.close();
    await page.keyboard.press('Escape');
  });

  it('a made-up share link says it is not available', async () => {
    const visitor = await browser.newContext();
    const guest = await visitor.newPage();
    await guest.goto(`${baseUrl}/shared/${'x'.repeat(43)}`);
    await guest.getByRole('heading', { name: 'This link is no longer available' }).waitFor();
    await guest.getByRole('link', { name: 'Go to Parley' }).waitFor();
    await visitor.close();
  });

  it('Delete asks first, then removes the card', async () => {
    await page.goto('/history');
    await titlesOnScreen(page, 6);
    let menu = await openMenu(page, 'Quarterly Sales Review');
    await menu.getByRole('menuitem', { name: 'Delete' }).click();
    let confirm = page.getByRole('alertdialog', { name: 'Delete this meeting?' });
    await confirm.getByText(/“Quarterly Sales Review” will be deleted for good/).waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await cards(page).count()).toBe(6);

    menu = await openMenu(page, 'Quarterly Sales Review');
    await menu.getByRole('menuitem', { name: 'Delete' }).click();
    confirm = page.getByRole('alertdialog', { name: 'Delete this meeting?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Meeting deleted').waitFor();
    const remaining = await titlesOnScreen(page, 5);
    expect(remaining).not.toContain('Quarterly Sales Review');
    await page.reload();
    expect(await titlesOnScreen(page, 5)).not.toContain('Quarterly Sales Review');
  });
});

describe('an account without meetings', () => {
  it('is invited to record its first meeting', async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Empty Account', email: uniqueEmail('empty'), password: 'nothing123' });
    const token = await page.evaluate(() => {
      const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'));
      return key ? (JSON.parse(localStorage.getItem(key)!) as { access_token: string }).access_token : '';
    });
    const removed = await page.request.delete(`${baseUrl}/api/v1/meetings/samples`, { headers: { authorization: `Bearer ${token}` } });
    expect(removed.status()).toBe(200);
    await page.goto('/history');
    await page.getByText('No meetings recorded yet.').waitFor();
    await page.getByRole('link', { name: 'Record your first meeting' }).click();
    await page.waitForURL(/\/record$/);
    await context.close();
  });
});

describe('search results', () => {
  it('show why each meeting matched, the words marked with speaker and time, and a click opens the meeting at that moment', async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Grace Hopper', email: uniqueEmail('search'), password: 'compiler1' });
    try {
      await page.goto('/history');
      await page.getByRole('searchbox', { name: 'Search meetings' }).fill('regression suite');
      await page.waitForURL(/[?&]q=regression\+suite/);
      await expect.poll(() => titlesOnScreen(page, 1)).toEqual(['Weekly Team Standup']);

      const matches = card(page, 'Weekly Team Standup').getByRole('list', { name: 'Matches in Weekly Team Standup' });
      const first = matches.getByRole('link').first();
      await first.getByText('Emma Wilson · 00:42', { exact: true }).waitFor();
      expect(await first.locator('mark').allTextContents()).toEqual(['regression', 'suite']);
      expect(await first.textContent()).toContain('QA needs two more days for the regression suite, mostly the billing screens.');
      expect(await first.getAttribute('href')).toMatch(/^\/meetings\/[0-9a-f-]{36}\?t=42000$/);

      await first.click();
      await page.waitForURL(/\/meetings\/[0-9a-f-]{36}\?t=42000$/);
      await page.getByRole('heading', { name: 'Weekly Team Standup' }).waitFor();
      // The line said at that moment is the one marked (the sample has no recording to play).
      const line = page.getByRole('list', { name: 'Transcript' }).getByRole('listitem').filter({ hasText: 'QA needs two more days' });
      await expect.poll(() => line.getAttribute('data-cited')).toBe('true');
      expect(await page.locator('[data-cited="true"]').count()).toBe(1);
    } finally {
      await context.close();
    }
  });
});
