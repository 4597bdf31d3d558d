import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '#tests/support/build-test-app.ts';
import { launchBrowser } from '#tests/support/browser.ts';
import { signedInPage, toast } from '#tests/support/e2e-auth.ts';
import { startFakeSentry, type FakeSentry } from '#tests/support/fake-sentry.ts';
import { spawnServer, type SpawnedServer } from '#tests/support/spawn-server.ts';

/**
 * Settings › Privacy "Error Reporting" in the browser (issue 34): an error the page runs into reaches
 * the operator's Sentry-compatible service (a local envelope endpoint) while the switch is on, and
 * nothing does once the person turns it off.
 */
let browser: Browser;
let sentry: FakeSentry;
let server: SpawnedServer;
let dataDir: string;

beforeAll(async () => {
  browser = await launchBrowser();
  sentry = await startFakeSentry();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-error-reports-'));
  server = await spawnServer({ port: await findFreePort(), dataDir, env: { SENTRY_DSN: sentry.dsn } });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await sentry?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const messages = () => sentry.events().map((event) => event.exception?.values?.[0]?.value);

/** An error no code of the page catches, as a bug would throw it; answers what Parley said of its report. */
async function throwInPage(page: Page, message: string): Promise<{ sent: boolean }> {
  const reported = page.waitForResponse((response) => response.url().endsWith('/api/v1/error-reports') && response.request().method() === 'POST');
  await page.evaluate((text) => {
    setTimeout(() => {
      throw new TypeError(text);
    });
  }, message);
  return (await (await reported).json()) as { sent: boolean };
}

describe('error reports from the browser', () => {
  it('reach the operator’s service while Error Reporting is on, scrubbed; none once it is off', { timeout: 90_000 }, async () => {
    const { context, page, account } = await signedInPage(browser, { baseUrl: server.baseUrl, fullName: 'Grace Hopper' });
    await page.getByRole('link', { name: 'Dashboard' }).first().waitFor();

    expect(await throwInPage(page, `The chart broke for ${account.email}`)).toEqual({ sent: true });
    await expect.poll(messages, { timeout: 15_000 }).toContain('The chart broke for [email]');
    const event = sentry.events().find((e) => e.exception?.values?.[0]?.value === 'The chart broke for [email]')!;
    expect(event).toMatchObject({ transaction: '/dashboard', tags: { source: 'web', kind: 'unhandled-error' } });
    expect(JSON.stringify(sentry.envelopes)).not.toContain(account.email);

    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Privacy' }).click();
    const panel = page.getByRole('tabpanel', { name: 'Privacy' });
    await panel.getByText('to the error-reporting service its operator set up, at 127.0.0.1').waitFor();
    await panel.getByRole('switch', { name: 'Error Reporting' }).click();
    await panel.getByRole('button', { name: 'Update Privacy Settings' }).click();
    await toast(page, 'Privacy settings updated').waitFor();

    const requests = sentry.requests();
    expect(await throwInPage(page, 'The settings page broke')).toEqual({ sent: false });
    expect(sentry.requests()).toBe(requests);
    expect(messages()).not.toContain('The settings page broke');
    await context.close();
  });
});
