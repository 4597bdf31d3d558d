import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eServer, launchBrowser, newPage } from '#tests/support/browser.ts';

const { baseUrl } = e2eServer();
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

describe('public pages', () => {
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
