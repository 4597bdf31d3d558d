import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from '#tests/support/axe.ts';
import { auditAppPages, auditPublicPages, open } from '#tests/support/axe-pages.ts';
import { e2eServer, launchBrowser, newPage, PHONE, uniqueEmail } from '#tests/support/browser.ts';
import { signedInPage, signIn, toast } from '#tests/support/e2e-auth.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';

const { baseUrl } = e2eServer();
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

describe('axe-core finds nothing serious', () => {
  it('(its check does find a serious problem where there is one)', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await page.setContent('<!doctype html><html lang="en"><title>t</title><main><button></button><img src="data:,"></main></html>');
    const found = await seriousAxeViolations(page);
    expect(found.some((v) => v.startsWith('critical button-name'))).toBe(true);
    expect(found.some((v) => v.startsWith('critical image-alt'))).toBe(true);
    await context.close();
  });

  // On a phone: accessibility-phone.spec.ts.
  it('on every public page, on a desktop', { timeout: 240_000 }, async () => {
    const { found, clean } = await auditPublicPages(browser);
    expect(found).toEqual(clean);
  });

  it('on every page of the app, each tab included, and on a shared meeting, on a desktop', { timeout: 240_000 }, async () => {
    const { found, clean, settings, cleanSettings } = await auditAppPages(browser);
    expect(found).toEqual(clean);
    expect(settings).toEqual(cleanSettings);
    expect(Object.keys(settings)).toContain('Billing');
  });
});

describe('toasts', () => {
  it('are readable: an error and a success toast pass axe-core (colour contrast included)', async () => {
    const account = { fullName: 'Tess Toast', email: uniqueEmail('toast'), password: 'toasted12' };
    await (await signedInPage(browser, account)).context.close();
    const { context, page } = await newPage(browser, baseUrl);
    // A toast fades in over 400 ms: its colours are judged once it is fully drawn (mid-fade every text is faint).
    const shown = async (text: string) => {
      const shownToast = toast(page, text);
      await shownToast.waitFor();
      await expect.poll(() => shownToast.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
    };
    await signIn(page, { email: account.email, password: 'wrong-password' });
    await shown('Invalid email or password. Please try again.');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await signIn(page, account);
    await shown('Welcome back!');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });
});

describe('a keyboard', () => {
  it('skips to the content first: the link is the first Tab stop, shows itself, and moves focus past the navigation', async () => {
    const { context, page } = await signedInPage(browser);
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await skip.isVisible()).toBe(true);
    const box = (await skip.boundingBox())!;
    expect(box.width).toBeGreaterThan(20); // drawn, not the 1 px of a visually hidden element
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main-content');
    // The next Tab lands inside the page's content, not in the sidebar.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('#main-content')))).toBe(true);
    await context.close();

    const visitor = await newPage(browser, baseUrl);
    await visitor.page.goto('/pricing');
    await visitor.page.getByRole('heading', { name: 'Simple, transparent pricing' }).waitFor();
    await visitor.page.keyboard.press('Tab');
    await visitor.page.keyboard.press('Enter');
    expect(await visitor.page.evaluate(() => document.activeElement?.id)).toBe('main-content');
    await visitor.context.close();
  });

  it('opens and works every menu: the user menu, a meeting’s actions and its Download submenu, the phone’s sidebar and site menu', async () => {
    const { context, page } = await signedInPage(browser);
    await page.getByRole('button', { name: /user menu/i }).focus();
    await page.keyboard.press('Enter');
    const userMenu = page.getByRole('menu');
    await userMenu.waitFor();
    // Opened from the keyboard, the menu has focus on its first item; the arrows walk its items.
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    const seen = [await focused()];
    while (seen.at(-1) !== 'Settings' && seen.length < 5) {
      await page.keyboard.press('ArrowDown');
      seen.push(await focused());
    }
    expect(seen.at(-1)).toBe('Settings');
    expect(await seriousAxeViolations(page)).toEqual([]); // the page with the menu open
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/settings$/);

    await open(page, '/history');
    const trigger = page.getByRole('button', { name: 'Actions for Weekly Team Standup' });
    await trigger.focus();
    await page.keyboard.press('Enter');
    const actions = page.getByRole('menu');
    await actions.getByRole('menuitem', { name: /Download/ }).waitFor();
    // Focus is on the first item, Download, which opens its formats to the right.
    await expect.poll(focused).toMatch(/^Download/);
    await page.keyboard.press('ArrowRight');
    await page.getByRole('menu').nth(1).getByRole('menuitem').first().waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape'); // closes the submenu
    await page.keyboard.press('Escape'); // closes the menu, focus back on its button
    await expect.poll(() => page.getByRole('menu').count()).toBe(0);
    expect(await trigger.evaluate((el) => el === document.activeElement)).toBe(true);
    await context.close();

    const phone = await signedInPage(browser, { viewport: PHONE });
    await phone.page.getByRole('button', { name: 'Toggle Sidebar' }).first().focus();
    await phone.page.keyboard.press('Enter');
    const sidebar = phone.page.getByRole('dialog');
    await sidebar.getByRole('link', { name: 'Meeting History' }).waitFor();
    expect(await seriousAxeViolations(phone.page)).toEqual([]);
    await sidebar.getByRole('link', { name: 'Meeting History' }).focus();
    await phone.page.keyboard.press('Enter');
    await phone.page.waitForURL(/\/history$/);
    await phone.context.close();

    const visitor = await newPage(browser, baseUrl, PHONE);
    await visitor.page.goto('/');
    const menuButton = visitor.page.getByRole('button', { name: 'Menu' });
    await menuButton.focus();
    await visitor.page.keyboard.press('Enter');
    const siteMenu = visitor.page.getByRole('navigation', { name: 'Site menu' });
    await siteMenu.getByRole('link', { name: 'Pricing' }).waitFor();
    expect(await seriousAxeViolations(visitor.page)).toEqual([]);
    await visitor.page.keyboard.press('Escape');
    await expect.poll(() => siteMenu.count()).toBe(0);
    await visitor.context.close();
  });

  it(
    'reaches the waveform of a recording with Tab and plays, pauses and skips from it (the meeting page passing axe-core with its player)',
    { timeout: 120_000 },
    async () => {
      const { context, page } = await signedInPage(browser);
      await page.goto('/record');
      await page.getByLabel('Recording file').setInputFiles(path.join(sharedAudioDir(), 'jfk.wav'));
      await toast(page, 'Meeting saved').waitFor();
      await page.getByRole('link', { name: 'Meeting History' }).first().click();
      await page
        .getByRole('article', { name: 'jfk', exact: true })
        .getByRole('link', { name: /View Details/ })
        .click();
      await page.waitForURL(/\/meetings\/[0-9a-f-]{36}$/);

      // The player's own keys are playback.spec.ts's subject; here, that a keyboard reaches the waveform and it answers.
      const position = page.getByRole('slider', { name: 'Playback position' });
      const player = page.getByTestId('audio-player');
      await expect.poll(() => position.getAttribute('aria-valuemax'), { timeout: 60_000 }).toMatch(/^1[01]$/); // loaded: 11 s of audio
      expect(await seriousAxeViolations(page)).toEqual([]); // the meeting page with its player (the samples have none)
      await player.getByRole('button', { name: /^Back / }).focus();
      await page.keyboard.press('Shift+Tab');
      expect(await position.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.press('Space');
      await player.getByRole('button', { name: 'Pause' }).waitFor();
      await page.keyboard.press('Space');
      await player.getByRole('button', { name: 'Play' }).waitFor();
      await page.keyboard.press('ArrowRight');
      await expect.poll(async () => Number(await position.getAttribute('aria-valuenow'))).toBeGreaterThan(0);
      await context.close();
    },
  );
});

describe('motion', () => {
  it('menus open with their animation by default, and at once for a person whose system asks for less motion', async () => {
    const { context, page } = await signedInPage(browser);
    /** How long the user menu's opening animation lasts, in seconds; the menu is closed again after. */
    const openingSeconds = async () => {
      await page.getByRole('button', { name: /user menu/i }).click();
      const menu = page.getByRole('menu');
      await menu.waitFor();
      const seconds = await menu.evaluate((element) => parseFloat(getComputedStyle(element).animationDuration));
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'detached' });
      return seconds;
    };
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    expect(await openingSeconds()).toBeGreaterThanOrEqual(0.1);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await openingSeconds()).toBeLessThan(0.001);
    await context.close();
  });
});
