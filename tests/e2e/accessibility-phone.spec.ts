import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditAppPages, auditPublicPages } from '#tests/support/axe-pages.ts';
import { launchBrowser, PHONE } from '#tests/support/browser.ts';

// accessibility.spec.ts's audits on a phone, in a file of their own so both browser workers audit.
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

describe('axe-core finds nothing serious', () => {
  it('on every public page, on a phone', { timeout: 240_000 }, async () => {
    const { found, clean } = await auditPublicPages(browser, PHONE);
    expect(found).toEqual(clean);
  });

  it('on every page of the app, each tab included, and on a shared meeting, on a phone', { timeout: 240_000 }, async () => {
    const { found, clean, settings, cleanSettings } = await auditAppPages(browser, PHONE);
    expect(found).toEqual(clean);
    expect(settings).toEqual(cleanSettings);
    expect(Object.keys(settings)).toContain('Billing');
  });
});
