import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtChunk, e2eServer, launchBrowser, newPage } from '#tests/support/browser.ts';

const { baseUrl } = e2eServer();
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

describe('public pages', () => {
  it('the landing page downloads none of the app: no auth client, no toasts, no app layout or shell; /auth brings the session and the toasts, not the signed-in app', async () => {
    // The build's manifest names each module's chunk (the files are hashed).
    const chunkOf = (key: RegExp) => `/${builtChunk(key)}`;
    const supabase = chunkOf(/@supabase\/auth-js\//);
    const toaster = chunkOf(/components\/ui\/sonner\.tsx$/);
    // The app layout, the shell and the dashboard, with what they import that the public pages do not (vite.config.ts).
    const signedIn = chunkOf(/^_signed-in-/);
    const appOnly = [supabase, toaster, signedIn];

    const { context, page } = await newPage(browser, baseUrl);
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await page.goto('/');
    await page.locator('#testimonials [data-testid="testimonial"]').first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(requested.filter((path) => appOnly.includes(path))).toEqual([]);

    await page.getByRole('link', { name: 'Sign In' }).first().click();
    await page.getByRole('tab', { name: 'Sign In' }).waitFor();
    await expect.poll(() => requested.includes(supabase) && requested.includes(toaster)).toBe(true);
    await page.waitForLoadState('networkidle');
    expect(requested).not.toContain(signedIn);
    await context.close();
  });

  it('the landing page is static HTML: it loads no app script, and with JavaScript off it shows everything and its menu opens and closes', async () => {
    const menuScript = `/${builtChunk(/^features\/marketing\/site-menu\.ts$/)}`;
    const { context, page } = await newPage(browser, baseUrl, { width: 390, height: 844 });
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    expect(scripts).toEqual([menuScript]);
    // Following a link in the menu to a section of the page closes it (the menu's script).
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('navigation', { name: 'Site menu' }).getByRole('link', { name: 'Testimonials' }).click();
    await page.waitForURL(/\/#testimonials$/);
    await expect.poll(() => page.getByRole('navigation', { name: 'Site menu' }).count()).toBe(0);
    await context.close();

    const noScript = await browser.newContext({ baseURL: baseUrl, viewport: { width: 390, height: 844 }, javaScriptEnabled: false });
    const bare = await noScript.newPage();
    await bare.goto('/');
    await bare.getByRole('heading', { level: 1 }).waitFor();
    expect(await bare.locator('#features [data-testid="feature-card"]').count()).toBe(4);
    expect(await bare.locator('#testimonials [data-testid="testimonial"]').count()).toBe(3);
    expect(await bare.getByRole('navigation', { name: 'Site menu' }).count()).toBe(0);
    await bare.getByRole('button', { name: 'Menu' }).click();
    const menu = bare.getByRole('navigation', { name: 'Site menu' });
    await menu.getByRole('link', { name: 'Pricing' }).waitFor();
    expect(await menu.getByRole('link', { name: 'Get Started' }).getAttribute('href')).toBe('/auth?tab=signup');
    await bare.keyboard.press('Escape');
    await expect.poll(() => menu.count()).toBe(0);
    await noScript.close();
  });

  it('a page whose download fails says so and offers Reload and Home; Home leads on to a page that works', async () => {
    const pricing = builtChunk(/routes\/pricing\.ts$/);
    const { context, page } = await newPage(browser, baseUrl);
    // The connection drops for the pricing page's chunk only.
    await page.route(`**/${pricing}`, (route) => route.abort('connectionreset'));
    await page.goto('/pricing');
    const alert = page.getByRole('alert');
    await alert.getByText('Parley was updated or the connection dropped. Reload the page to continue.').waitFor();
    expect(await alert.getByRole('button', { name: 'Reload' }).isVisible()).toBe(true);
    await alert.getByRole('link', { name: 'Home' }).click();
    await page.locator('#testimonials [data-testid="testimonial"]').first().waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await context.close();
  });

  it('the landing page has the hero, four feature cards, three testimonials and the anchors', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await page.goto('/');
    await page.locator('#testimonials [data-testid="testimonial"]').first().waitFor(); // the page is lazy-loaded
    for (const anchor of ['features', 'testimonials', 'pricing']) {
      expect(await page.locator(`#${anchor}`).count(), `#${anchor}`).toBe(1);
    }
    expect(await page.locator('#features [data-testid="feature-card"]').count()).toBe(4);
    expect(await page.locator('#testimonials [data-testid="testimonial"]').count()).toBe(3);
    await expect
      .poll(() =>
        page
          .getByText(/14-day/i)
          .first()
          .isVisible(),
      )
      .toBe(true);
    await context.close();
  });

  it('/pricing shows four plans and every plan button leads to /dashboard', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await page.goto('/pricing');
    await page.getByRole('heading', { name: 'Simple, transparent pricing' }).waitFor();
    for (const plan of ['Free', 'Pro', 'Business', 'Enterprise']) {
      expect(await page.getByRole('heading', { name: plan, exact: true }).count(), plan).toBeGreaterThan(0);
    }
    await expect.poll(() => page.getByText('$12.99').first().isVisible()).toBe(true);
    await expect.poll(() => page.getByText('$24.99').first().isVisible()).toBe(true);
    // The plan buttons, in the page itself: the site header has its own 'Get Started', which leads to /auth.
    const getStarted = page.locator('main').getByRole('link', { name: 'Get Started', exact: true });
    expect(await getStarted.count()).toBe(3);
    for (const href of await getStarted.evaluateAll((links) => links.map((l) => l.getAttribute('href')))) {
      expect(href).toBe('/dashboard');
    }
    expect(await page.locator('main').getByRole('link', { name: 'Contact Sales', exact: true }).getAttribute('href')).toBe('/dashboard');
    await context.close();
  });

  it('an unknown path shows the not-found page, and Go Back returns', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await page.goto('/pricing');
    await page.goto('/no/such/page');
    await page.getByText('Page Not Found').waitFor();
    expect(await page.getByRole('link', { name: 'Go to Dashboard' }).getAttribute('href')).toBe('/');
    await page.getByRole('button', { name: 'Go Back' }).click();
    await page.waitForURL(`${baseUrl}/pricing`);
    await context.close();
  });

  it.each(['/blog', '/help', '/guides', '/about', '/careers', '/contact', '/privacy', '/terms'])(
    '%s is a real page with a heading and the site footer',
    async (path) => {
      const { context, page } = await newPage(browser, baseUrl);
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      expect(await page.getByText('Page Not Found').count()).toBe(0);
      expect(await page.locator('footer').count()).toBeGreaterThan(0);
      await context.close();
    },
  );

  it('privacy says truthfully what a self-hosted installation stores', async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await page.goto('/privacy');
    const text = await page.locator('main').innerText();
    expect(text).toMatch(/self-host/i);
    expect(text).toMatch(/argon2/i);
    expect(text).toMatch(/recording/i);
    await context.close();
  });
});
