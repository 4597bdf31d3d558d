import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { launchBrowser, uniqueEmail } from '#tests/support/browser.ts';
import { findFreePort } from '#tests/support/build-test-app.ts';
import { signedInPage, toast } from '#tests/support/e2e-auth.ts';
import { startFakeStripe, type FakeStripe } from '#tests/support/fake-stripe.ts';
import { spawnServer, type SpawnedServer } from '#tests/support/spawn-server.ts';

// Settings › Billing in the browser, against the built server billing through a local server that
// speaks Stripe's API (Checkout and the portal are its pages; its webhooks are signed as Stripe
// signs them): the trial without a card, a card and the first paid period, an upgrade, Cancel
// Subscription at the period's end, and the account back on Free when that period is over.

const SECRET_KEY = 'sk_test_parley_e2e';
const WEBHOOK_SECRET = 'whsec_parley_e2e';
const DAY = 86_400;

let browser: Browser;
let server: SpawnedServer;
let stripe: FakeStripe;
let dataDir: string;

beforeAll(async () => {
  stripe = await startFakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, prices: { pro: 'price_pro', business: 'price_business' } });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-e2e-billing-'));
  server = await spawnServer({
    port: await findFreePort(),
    dataDir,
    env: {
      AUTH_AUTOCONFIRM: 'true',
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_PRICE_PRO: 'price_pro',
      STRIPE_PRICE_BUSINESS: 'price_business',
      STRIPE_API_URL: stripe.url,
    },
  });
  stripe.setWebhookUrl(`${server.baseUrl}/billing/stripe/webhook`);
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await stripe?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('Settings › Billing with Stripe', () => {
  it('trial → subscribe → upgrade → cancel at period end → access ends', { timeout: 120_000 }, async () => {
    const { context, page } = await signedInPage(browser, { baseUrl: server.baseUrl, email: uniqueEmail('billing') });
    try {
      await page.goto(`${server.baseUrl}/settings?tab=billing`);
      const panel = page.getByRole('tabpanel', { name: 'Billing' });
      const status = panel.getByTestId('subscription-status');
      await panel.getByText('You are on the Free plan: subscribe to Pro or Business below.').waitFor();
      await panel.getByTestId('plan-usage').getByText('Your account is on the Free plan. Its limits apply to you:').waitFor();

      // The trial: Checkout asks for no card.
      await panel.getByRole('button', { name: 'Start 14-day free trial of Pro' }).click();
      await page.waitForURL(/\/checkout\/cs_test_/);
      await page.getByText('no card needed for the trial').waitFor();
      await page.getByRole('button', { name: 'Start 14-day free trial' }).click();
      await page.waitForURL(/\/settings\?tab=billing&checkout=done$/);
      await status.getByText(/^Your free trial of Pro ends on /).waitFor();
      await panel.getByRole('heading', { name: 'Pro Plan' }).waitFor();
      // The dashboard's usage card counts this month against Pro's hours (the sample meetings are not counted).
      await page.goto(`${server.baseUrl}/dashboard`);
      const usage = page.getByTestId('plan-usage');
      await usage.getByText('0 of 30 hours').waitFor();
      await usage.getByText('Pro plan').waitFor();
      await page.goto(`${server.baseUrl}/settings?tab=billing`);

      // Subscribe: a card added in the portal (View invoice history), then the trial ends into a paid period.
      await panel.getByRole('button', { name: 'View invoice history' }).click();
      await page.waitForURL(/\/portal\/bps_test_/);
      await page.getByRole('button', { name: 'Add card' }).click();
      await page.getByText('Visa ending in 4242').waitFor();
      await page.getByRole('link', { name: 'Return to Parley' }).click();
      await page.waitForURL(/\/settings\?tab=billing$/);
      await stripe.advance(14 * DAY);
      await page.reload();
      await status.getByText(/^Your next billing date is /).waitFor();

      // Upgrade: Business at once.
      await panel.getByRole('button', { name: 'Upgrade to Business' }).click();
      await toast(page, 'Your plan is now Business.').waitFor();
      await panel.getByRole('heading', { name: 'Business Plan' }).waitFor();
      await panel.getByTestId('plan-usage').getByText('Team management', { exact: true }).waitFor();

      // Cancel Subscription: it ends with the period, Business kept until then.
      await panel.getByRole('button', { name: 'Cancel Subscription' }).click();
      await status.getByText(/^Your subscription is cancelled: it ends on .+, and you keep Business until then\.$/).waitFor();
      await panel.getByRole('button', { name: 'Cancel Subscription' }).waitFor({ state: 'detached' });

      // The period ends (Stripe's clock moves on and it deletes the subscription): Free again, the trial used.
      await stripe.advance(31 * DAY);
      await page.reload();
      await status.getByText('You are on the Free plan: subscribe to Pro or Business below.').waitFor();
      await panel.getByRole('button', { name: 'Subscribe to Pro' }).waitFor();
      await panel.getByTestId('plan-usage').getByText('No team management', { exact: true }).waitFor();
    } finally {
      await context.close();
    }
  });
});
