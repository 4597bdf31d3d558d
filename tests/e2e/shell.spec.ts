import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtChunk, launchBrowser, PHONE, uniqueEmail } from '#tests/support/browser.ts';
import { signedInPage } from '#tests/support/e2e-auth.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

const SIDEBAR_ENTRIES = ['Dashboard', 'Record Meeting', 'Meeting History', 'AI Insights', 'Team', 'Settings'];

const sidebarState = (page: Page) => page.locator('[data-sidebar-state]').first().getAttribute('data-sidebar-state');
/** The sidebar column, border included (the fixed container of shadcn's sidebar). */
const sidebarWidth = (page: Page) =>
  page
    .locator('[data-slot="sidebar-container"]')
    .first()
    .evaluate((el) => el.getBoundingClientRect().width);
const sidebarCookie = async (page: Page) => (await page.context().cookies()).find((c) => c.name === 'sidebar_state');

/** The chunk of components/ui/dropdown-menu.tsx: its own, or (other pages import it too) the shared one named after it. */
const menuChunkFile = () => builtChunk(/components\/ui\/dropdown-menu\.tsx$|^_dropdown-menu-/);

describe('the app shell', () => {
  it('on a desktop: sidebar entries, upgrade box, user menu with name and email', async () => {
    const email = uniqueEmail('shell');
    const { context, page } = await signedInPage(browser, { fullName: 'Hedy Lamarr', email, password: 'frequency1' });
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const entry of SIDEBAR_ENTRIES) await nav.getByRole('link', { name: entry }).waitFor();
    await page.getByText('Upgrade to Pro').first().waitFor();
    await expect.poll(() => sidebarWidth(page)).toBe(256); // 16rem
    await page.getByRole('button', { name: /user menu/i }).click();
    const menu = page.getByRole('menu');
    await menu.getByText('Hedy Lamarr').waitFor();
    await menu.getByText(email).waitFor();
    await menu.getByRole('menuitem', { name: 'Settings' }).click();
    await page.waitForURL(/\/settings$/);
    await context.close();
  });

  it('the user menu pressed from the keyboard before its code has arrived opens when it does, at its first item; Escape returns to the trigger', async () => {
    // The menu's code comes after the first page; here it is held back until released.
    const menuChunk = menuChunkFile();
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let asked = false;
    const { context, page } = await signedInPage(browser, {
      fullName: 'Grace Hopper',
      email: uniqueEmail('gh'),
      password: 'cobol1959',
      prepare: (ctx) =>
        ctx.route(`**/${menuChunk}`, async (route) => {
          asked = true;
          await released;
          await route.continue();
        }),
    });
    const trigger = page.getByRole('button', { name: /user menu/i });
    await trigger.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => asked).toBe(true);
    expect(await page.getByRole('menu').count()).toBe(0);
    release();
    const settings = page.getByRole('menu').getByRole('menuitem', { name: 'Settings' });
    await expect.poll(() => settings.evaluate((item) => item === document.activeElement)).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('menu').count()).toBe(0);
    await expect.poll(() => trigger.evaluate((button) => button === document.activeElement)).toBe(true);
    await context.close();
  });

  it('a menu whose code cannot be downloaded says so, and the next press loads it and opens it', async () => {
    let failing = true;
    const { context, page } = await signedInPage(browser, {
      fullName: 'Katherine Johnson',
      email: uniqueEmail('kj'),
      password: 'trajectory1',
      prepare: (ctx) => ctx.route(`**/${menuChunkFile()}`, (route) => (failing ? route.abort('internetdisconnected') : route.continue())),
    });
    const bell = page.getByRole('button', { name: /^Notifications/ });
    await bell.click();
    await page.getByText('This menu could not be downloaded. Check your connection and try again.').waitFor();
    expect(await page.getByRole('menu').count()).toBe(0);
    failing = false;
    // From the keyboard: the toast, top right, lies over the bell for a while.
    await bell.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menu').getByText('No notifications yet.').waitFor();
    await context.close();
  });

  it('Ctrl+B collapses the sidebar to icons, the cookie keeps it for 7 days, and a reload keeps it collapsed', async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Margaret Hamilton', email: uniqueEmail('mh'), password: 'apollo11' });
    expect(await sidebarState(page)).toBe('expanded');
    await page.keyboard.press('Control+b');
    await expect.poll(() => sidebarState(page)).toBe('collapsed');
    const cookie = await sidebarCookie(page);
    expect(cookie?.value).toBe('false');
    const days = ((cookie?.expires ?? 0) - Date.now() / 1000) / 86400;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThan(7.1);
    await expect.poll(() => sidebarWidth(page)).toBe(48); // 3rem, once the 200 ms transition ends
    // In icon mode each entry names itself in a tooltip. Its code arrives once the sidebar is in icon
    // mode, and the tooltip opens on a pointer move: a hover that came before the code needs the next
    // move, as a person's hand makes one.
    const historyLink = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Meeting History' });
    let nudge = 0;
    await expect
      .poll(async () => {
        nudge = (nudge + 1) % 4;
        await historyLink.hover({ position: { x: 12 + nudge, y: 12 } });
        return page.getByRole('tooltip', { name: 'Meeting History' }).isVisible();
      })
      .toBe(true);
    await page.reload();
    await expect.poll(() => sidebarState(page)).toBe('collapsed');
    await page.keyboard.press('Control+b');
    await expect.poll(() => sidebarState(page)).toBe('expanded');
    expect((await sidebarCookie(page))?.value).toBe('true');
    await context.close();
  });

  it('at 375px: no fixed sidebar, a bottom bar with five entries, the sidebar opens as an overlay', async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Radia Perlman', email: uniqueEmail('rp'), password: 'spanning1', viewport: PHONE });
    const bottomBar = page.getByRole('navigation', { name: 'Bottom' });
    for (const entry of ['Home', 'Dashboard', 'Record', 'History', 'Insights']) {
      await bottomBar.getByRole('link', { name: entry, exact: true }).waitFor();
    }
    expect(await bottomBar.getByRole('link').count()).toBe(5);
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Toggle Sidebar' }).first().click();
    const overlay = page.getByRole('dialog');
    await overlay.getByRole('link', { name: 'Meeting History' }).click();
    await page.waitForURL(/\/history$/);
    const overlayWidth = await page.evaluate(() => document.documentElement.clientWidth);
    expect(overlayWidth).toBe(375);
    await context.close();
  });
});
