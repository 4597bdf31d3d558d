import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, findFreePort, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { startFakeSmtp } from '#tests/support/fake-smtp.ts';
import { startFakeStripe, type FakeStripe } from '#tests/support/fake-stripe.ts';

// Billing with Stripe configured, against a local server that speaks Stripe's API and signs its
// webhooks as Stripe does. The server's clock is the local Stripe's, so trials and periods end
// for both at once when a test moves it on.
const SECRET_KEY = 'sk_test_parley';
const WEBHOOK_SECRET = 'whsec_parley_test';
const PRICES = { pro: 'price_pro_monthly', business: 'price_business_monthly' };
const DAY = 86_400;

let stripe: FakeStripe;
let smtp: Awaited<ReturnType<typeof startFakeSmtp>>;
let t: TestApp;
beforeAll(async () => {
  stripe = await startFakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, prices: PRICES });
  smtp = await startFakeSmtp();
  t = await buildTestApp({
    listen: true,
    env: {
      AUTH_AUTOCONFIRM: 'true',
      AUTH_RATE_LIMITS: 'false',
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_PRICE_PRO: PRICES.pro,
      STRIPE_PRICE_BUSINESS: PRICES.business,
      STRIPE_API_URL: stripe.url,
      // The local Stripe is on loopback, which the outbound policy refuses unless allowed.
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(smtp.port),
    },
    deps: { clock: { now: () => new Date(stripe.now() * 1000) } },
  });
  stripe.setWebhookUrl(`${t.baseUrl}/billing/stripe/webhook`);
});
afterAll(async () => {
  await t.close();
  await stripe.close();
  await smtp.close();
});

type Method = 'GET' | 'POST' | 'PUT';
const call = async (bearer: string, method: Method, url: string, payload?: object) => {
  const response = await t.app.inject({ method, url, headers: { authorization: `Bearer ${bearer}` }, ...(payload ? { payload } : {}) });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of several shapes, each asserted field by field
  return { status: response.statusCode, body: response.json() as Record<string, any> };
};
const overview = async (token: string) => (await call(token, 'GET', '/api/v1/billing')).body;
const isoAt = (seconds: number) => new Date(seconds * 1000).toISOString();
/** The latest change Parley asked of a subscription (the webhooks that follow make Parley read it again, so it is not the last request). */
const lastUpdate = () => stripe.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/v1/subscriptions/')).at(-1);

/** Checkout for the plan, clicked through on the local Stripe: answers the Checkout session. */
async function subscribe(token: string, plan: 'pro' | 'business') {
  const checkout = await call(token, 'POST', '/api/v1/billing/checkout', { plan });
  expect(checkout.status).toBe(200);
  const session = stripe.lastCheckout()!;
  expect(checkout.body.url).toBe(`${stripe.url}/checkout/${session.id}`);
  const subscription = await stripe.completeCheckout(session.id);
  return { session, subscription };
}

describe('billing with Stripe', () => {
  it('tells the web app billing is on; a new account is on Free with its trial to start, and Free limits it', async () => {
    const config = await t.app.inject({ url: '/app-config.js' });
    expect(config.body).toContain('"billing":true');
    const { token } = await signUpUser(t.app, 'stripe');
    expect(await overview(token)).toMatchObject({ billing: true, plan: { id: 'free', source: 'default' }, subscription: null, trialAvailable: true });
    expect(await call(token, 'POST', '/api/v1/tokens', { name: 'script', scopes: ['read'] })).toEqual({
      status: 403,
      body: {
        error: {
          code: 'PLAN_LIMIT',
          message: 'API access is not included in your Free plan. Upgrade to Business in Settings › Billing for API access.',
          details: { plan: 'free' },
        },
      },
    });
  });

  it('trial without a card → subscribe → upgrade → cancel at period end → access ends', async () => {
    const { token, email } = await signUpUser(t.app, 'stripe', { fullName: 'Grace Hopper' });
    const { session, subscription } = await subscribe(token, 'pro');

    // Checkout was asked for the one trial, without a card, ended if no card comes.
    const created = stripe.requests.find((r) => r.path === '/v1/checkout/sessions' && r.body.customer === session.customer)!;
    expect(created.body).toMatchObject({
      mode: 'subscription',
      client_reference_id: expect.any(String),
      line_items: [{ price: PRICES.pro, quantity: '1' }],
      payment_method_collection: 'if_required',
      subscription_data: { trial_period_days: '14', trial_settings: { end_behavior: { missing_payment_method: 'cancel' } } },
      success_url: `${t.baseUrl}/settings?tab=billing&checkout=done`,
    });
    expect(stripe.customer(session.customer)).toMatchObject({ email, name: 'Grace Hopper' });

    const trial = await overview(token);
    expect(trial).toMatchObject({
      plan: { id: 'pro', source: 'subscription' },
      subscription: { plan: 'pro', planName: 'Pro', status: 'trialing', trialEndsAt: isoAt(stripe.now() + 14 * DAY), cancelAtPeriodEnd: false, keptPlan: null },
      trialAvailable: false,
    });
    // A second Checkout while subscribed is refused; the trial is not offered twice.
    expect((await call(token, 'POST', '/api/v1/billing/checkout', { plan: 'business' })).status).toBe(409);

    // Subscribe: a card added in the portal, and the trial ends into a paid period.
    const portal = await call(token, 'POST', '/api/v1/billing/portal');
    expect(portal.body.url).toMatch(new RegExp(`^${stripe.url}/portal/bps_test_`));
    stripe.addCard(session.customer);
    await stripe.advance(14 * DAY);
    const paid = await overview(token);
    expect(paid.subscription).toMatchObject({ status: 'active', currentPeriodEnd: isoAt(stripe.subscription(subscription.id)!.periodEnd) });
    expect((await call(token, 'POST', '/api/v1/tokens', { name: 'script', scopes: ['read'] })).status).toBe(403);

    // Upgrade: Business at once, invoiced prorated.
    const upgraded = await call(token, 'POST', '/api/v1/billing/plan', { plan: 'business' });
    expect(upgraded.body).toMatchObject({ plan: { id: 'business', source: 'subscription' }, subscription: { plan: 'business', keptPlan: null } });
    expect(lastUpdate()).toMatchObject({ path: `/v1/subscriptions/${subscription.id}`, body: { proration_behavior: 'always_invoice' } });
    const apiToken = await call(token, 'POST', '/api/v1/tokens', { name: 'script', scopes: ['read'] });
    expect(apiToken.status).toBe(201);

    // Cancel Subscription: it ends with the period; Business until then.
    const cancelled = await call(token, 'POST', '/api/v1/billing/cancel');
    expect(cancelled.body).toMatchObject({ plan: { id: 'business' }, subscription: { status: 'active', cancelAtPeriodEnd: true } });
    expect((await call(token, 'POST', '/api/v1/billing/cancel')).status).toBe(409);
    await stripe.advance(29 * DAY);
    expect((await overview(token)).plan.id).toBe('business');
    expect((await call(apiToken.body.token, 'GET', '/api/v1/meetings')).status).toBe(200);

    // The period ends: Stripe deletes the subscription, and the account is on Free again.
    await stripe.advance(2 * DAY);
    expect(stripe.deliveries.at(-1)).toMatchObject({ type: 'customer.subscription.deleted', status: 200 });
    expect(await overview(token)).toMatchObject({ plan: { id: 'free', source: 'default' }, subscription: { status: 'canceled' }, trialAvailable: false });
    expect((await call(apiToken.body.token, 'GET', '/api/v1/meetings')).body.error.code).toBe('PLAN_LIMIT');
  });

  it('a trial ends without a card: the subscription is cancelled and the account is on Free', async () => {
    const { token } = await signUpUser(t.app, 'stripe');
    await subscribe(token, 'business');
    expect((await overview(token)).plan.id).toBe('business');
    await stripe.advance(14 * DAY);
    expect(await overview(token)).toMatchObject({ plan: { id: 'free' }, subscription: { status: 'canceled' } });
    // The one trial was used: Checkout now asks for a card.
    await call(token, 'POST', '/api/v1/billing/checkout', { plan: 'pro' });
    const again = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!;
    expect(again.body.subscription_data).not.toHaveProperty('trial_period_days');
    expect(again.body).not.toHaveProperty('payment_method_collection');
  });

  it('a downgrade keeps the plan paid for until the period ends', async () => {
    const { token } = await signUpUser(t.app, 'stripe');
    const { session, subscription } = await subscribe(token, 'business');
    stripe.addCard(session.customer);
    await stripe.advance(14 * DAY);
    const periodEnd = stripe.subscription(subscription.id)!.periodEnd;

    const downgraded = await call(token, 'POST', '/api/v1/billing/plan', { plan: 'pro' });
    expect(downgraded.body).toMatchObject({
      plan: { id: 'business', source: 'subscription' },
      subscription: { plan: 'pro', keptPlan: { id: 'business', name: 'Business', until: isoAt(periodEnd) } },
    });
    expect(lastUpdate()).toMatchObject({ body: { proration_behavior: 'none', items: [{ price: PRICES.pro }] } });
    await stripe.advance(30 * DAY + 60);
    expect(await overview(token)).toMatchObject({ plan: { id: 'pro' }, subscription: { plan: 'pro', status: 'active', keptPlan: null } });
  });

  it('webhooks: a bad or missing signature is refused, a replayed event changes nothing, an unknown customer is ignored', async () => {
    const { token } = await signUpUser(t.app, 'stripe');
    const { subscription } = await subscribe(token, 'pro');
    const event = stripe.eventOf('customer.subscription.updated', { id: subscription.id, object: 'subscription' });
    const payload = JSON.stringify(event);
    const refused = { error: { code: 'VALIDATION_FAILED', message: 'The webhook signature does not verify.' } };

    const forged = await stripe.send(event, stripe.sign(payload, 'whsec_someone_else'));
    expect({ status: forged.status, body: JSON.parse(forged.body) }).toEqual({ status: 400, body: refused });
    const tampered = await stripe.send({ ...event, type: 'customer.subscription.deleted' }, stripe.sign(payload));
    expect(tampered.status).toBe(400);
    const stale = await stripe.send(event, stripe.sign(payload, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 3600));
    expect(stale.status).toBe(400);
    const unsigned = await fetch(`${t.baseUrl}/billing/stripe/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload });
    expect(unsigned.status).toBe(400);

    const reads = () => stripe.requests.filter((r) => r.method === 'GET' && r.path === `/v1/subscriptions/${subscription.id}`).length;
    const before = reads();
    const first = await stripe.send(event);
    expect({ status: first.status, body: JSON.parse(first.body) }).toEqual({ status: 200, body: { received: true, outcome: 'processed' } });
    expect(reads()).toBe(before + 1);
    const replayed = await stripe.send(event);
    expect({ status: replayed.status, body: JSON.parse(replayed.body) }).toEqual({ status: 200, body: { received: true, outcome: 'duplicate' } });
    expect(reads()).toBe(before + 1);

    const elsewhere = await stripe.send(stripe.eventOf('invoice.paid', { id: 'in_test_1', object: 'invoice' }));
    expect(JSON.parse(elsewhere.body)).toEqual({ received: true, outcome: 'ignored' });
    expect((await overview(token)).subscription.status).toBe('trialing');
  });

  it('two Checkouts at once for an account without a customer make one Stripe customer, used by both', async () => {
    const { token, userId } = await signUpUser(t.app, 'stripe');
    const sessionsBefore = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').length;
    const [first, second] = await Promise.all([
      call(token, 'POST', '/api/v1/billing/checkout', { plan: 'pro' }),
      call(token, 'POST', '/api/v1/billing/checkout', { plan: 'business' }),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    // Each asked Stripe for the account's customer under the account's idempotency key (both do when
    // they overlap; the second finds the first's customer stored when the first was done first).
    const asked = stripe.requests.filter(
      (r) => r.path === '/v1/customers' && r.body.metadata && (r.body.metadata as Record<string, unknown>).parley_user_id === userId,
    );
    expect(asked.length).toBeGreaterThanOrEqual(1);
    expect(new Set(asked.map((r) => r.idempotencyKey))).toEqual(new Set([`parley-customer-${userId}`]));
    const made = stripe.customers().filter((c) => c.userId === userId);
    expect(made).toHaveLength(1);
    const sessions = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').slice(sessionsBefore);
    expect(sessions.map((r) => r.body.customer)).toEqual([made[0]!.id, made[0]!.id]);
    expect(
      (await t.database.db.selectFrom('billing_accounts').select('stripe_customer_id').where('user_id', '=', userId).executeTakeFirst())?.stripe_customer_id,
    ).toBe(made[0]!.id);
  });

  it('a payment that fails (past_due) is emailed once, however many events say so, and again the next time', async () => {
    const { token, email } = await signUpUser(t.app, 'stripe', { fullName: 'Ada Lovelace' });
    const { subscription } = await subscribe(token, 'pro');
    const mailsTo = () =>
      smtp.messages.filter((m) => m.subject === 'Your Parley payment did not go through' && m.to && !Array.isArray(m.to) && m.to.text === email);

    const failed = await stripe.failPayment(subscription.id);
    expect({ status: failed.delivery.status, body: JSON.parse(failed.delivery.body) }).toEqual({ status: 200, body: { received: true, outcome: 'processed' } });
    await expect.poll(() => mailsTo().length, { timeout: 10_000 }).toBe(1);
    const mail = mailsTo()[0]!;
    expect(mail.text).toBe(
      [
        'The latest payment for your Parley Pro subscription did not go through. Stripe will try the card again over the next few days, and your Pro plan stays as it is meanwhile.',
        '',
        `Update your card: ${t.baseUrl}/settings?tab=billing`,
        '',
        'To change the card, open Settings › Billing and choose “View invoice history”. If every try fails, the subscription ends and your account moves to the Free plan.',
      ].join('\n'),
    );
    expect(mail.html).toContain(`href="${t.baseUrl}/settings?tab=billing"`);
    // Still Pro while Stripe retries.
    expect(await overview(token)).toMatchObject({ plan: { id: 'pro' }, subscription: { status: 'past_due' } });

    // The same event again (a replay) and another event while still past_due: no second email.
    expect(JSON.parse((await stripe.send(failed.event)).body)).toEqual({ received: true, outcome: 'duplicate' });
    expect(JSON.parse((await stripe.failPayment(subscription.id)).delivery.body)).toEqual({ received: true, outcome: 'processed' });
    // Paid after all, then failing again at a later renewal: a new email.
    await stripe.recoverPayment(subscription.id);
    expect(await overview(token)).toMatchObject({ subscription: { status: 'active' } });
    await stripe.failPayment(subscription.id);
    await expect.poll(() => mailsTo().length, { timeout: 10_000 }).toBe(2);
    await t.deps.jobs.idle();
    expect(mailsTo()).toHaveLength(2);
  });

  it('an invoice whose payment fails is told once per invoice (bell and email) and shown in Billing until it is paid', async () => {
    const { token, email } = await signUpUser(t.app, 'stripe', { fullName: 'Ada Lovelace' });
    const { subscription } = await subscribe(token, 'pro');
    const mailsTo = () =>
      smtp.messages.filter((m) => m.subject === 'A Parley invoice could not be paid' && m.to && !Array.isArray(m.to) && m.to.text === email);
    const bell = async () => ((await call(token, 'GET', '/api/v1/notifications')).body.items as { kind: string }[]).filter((n) => n.kind === 'billing');

    const first = await stripe.failInvoice(subscription.id);
    expect({ status: first.delivery.status, body: JSON.parse(first.delivery.body) }).toEqual({ status: 200, body: { received: true, outcome: 'processed' } });
    await expect.poll(() => mailsTo().length, { timeout: 10_000 }).toBe(1);
    expect(mailsTo()[0]!.text).toBe(
      [
        "The payment of $12.99 for your Parley subscription's latest invoice did not go through. Stripe will try the card again over the next few days.",
        '',
        `Update your card: ${t.baseUrl}/settings?tab=billing`,
        '',
        'To change the card or pay the invoice, open Settings › Billing and choose “Update payment method”. If every try fails, the subscription ends and your account moves to the Free plan.',
      ].join('\n'),
    );
    await expect.poll(bell, { timeout: 10_000 }).toMatchObject([
      {
        title: 'A payment did not go through',
        body: 'The payment of $12.99 for your subscription failed. Update your card in Settings › Billing.',
        link: '/settings?tab=billing',
        readAt: null,
      },
    ]);
    expect((await overview(token)).paymentFailure).toEqual({
      amountDue: 1299,
      currency: 'usd',
      attempts: 1,
      failedAt: isoAt(stripe.now()),
      nextAttemptAt: isoAt(first.invoice.nextPaymentAttempt!),
    });

    // The same event again, and Stripe's next try at the same invoice failing too: told once still.
    expect(JSON.parse((await stripe.send(first.event)).body)).toEqual({ received: true, outcome: 'duplicate' });
    await stripe.advance(3 * DAY);
    const second = await stripe.failInvoice(subscription.id);
    expect(second.invoice.id).toBe(first.invoice.id);
    expect(JSON.parse(second.delivery.body)).toEqual({ received: true, outcome: 'processed' });
    expect((await overview(token)).paymentFailure).toMatchObject({ attempts: 2, nextAttemptAt: isoAt(second.invoice.nextPaymentAttempt!) });
    await t.deps.jobs.idle();
    expect(mailsTo()).toHaveLength(1);
    expect(await bell()).toHaveLength(1);

    // Paid after all: Billing no longer shows it. A later invoice that fails is told again.
    expect(JSON.parse((await stripe.payInvoice(first.invoice.id)).body)).toEqual({ received: true, outcome: 'processed' });
    expect((await overview(token)).paymentFailure).toBeNull();
    const next = await stripe.failInvoice(subscription.id);
    expect(next.invoice.id).not.toBe(first.invoice.id);
    await expect.poll(() => mailsTo().length, { timeout: 10_000 }).toBe(2);
    await expect.poll(async () => (await bell()).length, { timeout: 10_000 }).toBe(2);
    // The subscription past due because of that invoice: no second email about the same failure.
    await stripe.failPayment(subscription.id);
    await t.deps.jobs.idle();
    expect(smtp.messages.filter((m) => m.subject === 'Your Parley payment did not go through' && m.to && !Array.isArray(m.to) && m.to.text === email)).toEqual(
      [],
    );
    // Voided in Stripe: nothing is owed, and Billing shows nothing.
    expect((await overview(token)).paymentFailure).toMatchObject({ attempts: 1 });
    expect(JSON.parse((await stripe.voidInvoice(next.invoice.id)).body)).toEqual({ received: true, outcome: 'processed' });
    expect((await overview(token)).paymentFailure).toBeNull();
  });

  it("Billing Information is saved to the account's Stripe customer", async () => {
    const { token } = await signUpUser(t.app, 'stripe', { fullName: 'Ada Lovelace' });
    const { session } = await subscribe(token, 'pro');
    const saved = await call(token, 'PUT', '/api/v1/settings/billing', {
      company: 'Analytical Engines Ltd',
      address: '12 St James Square',
      city: 'London',
      state: '',
      zip: 'SW1Y 4JH',
      country: 'GB',
    });
    expect(saved.status).toBe(200);
    await expect
      .poll(() => stripe.customer(session.customer), { timeout: 30_000 })
      .toMatchObject({
        name: 'Analytical Engines Ltd',
        address: { line1: '12 St James Square', city: 'London', postal_code: 'SW1Y 4JH', country: 'GB' },
        metadata: { billing_name: 'Ada Lovelace', company: 'Analytical Engines Ltd' },
      });
  });

  it('Delete Account ends a running subscription at once, so nothing is billed for an account that is gone', async () => {
    const { token, email } = await signUpUser(t.app, 'stripe');
    const { subscription } = await subscribe(token, 'pro');
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/me',
      headers: { authorization: `Bearer ${token}` },
      payload: { email, password: 'secret12' },
    });
    expect(deleted.statusCode).toBe(200);
    expect(stripe.subscription(subscription.id)?.status).toBe('canceled');
    expect(stripe.requests.filter((r) => r.method === 'DELETE' && r.path === `/v1/subscriptions/${subscription.id}`)).toHaveLength(1);
  });

  it('answers in words when Stripe refuses a request or cannot be reached', async () => {
    const stripeEnv = (overrides: Record<string, string>) => ({
      AUTH_AUTOCONFIRM: 'true',
      AUTH_RATE_LIMITS: 'false',
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_PRICE_PRO: PRICES.pro,
      STRIPE_PRICE_BUSINESS: PRICES.business,
      STRIPE_API_URL: stripe.url,
      // The local Stripe is on loopback, which the outbound policy refuses unless allowed.
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
      ...overrides,
    });
    const checkoutOn = async (app: TestApp) => {
      const { token } = await signUpUser(app.app, 'stripe');
      const answer = await app.app.inject({
        method: 'POST',
        url: '/api/v1/billing/checkout',
        headers: { authorization: `Bearer ${token}` },
        payload: { plan: 'pro' },
      });
      return { status: answer.statusCode, body: answer.json() as unknown };
    };
    // A price id Stripe does not know: refused, and the person is not shown the operator's configuration.
    const misconfigured = await buildTestApp({ env: stripeEnv({ STRIPE_PRICE_PRO: 'price_mistyped' }) });
    try {
      expect(await checkoutOn(misconfigured)).toEqual({
        status: 500,
        body: {
          error: {
            code: 'INTERNAL',
            message: 'The payment service refused to open Checkout. The administrator of this installation can see why in the server log.',
          },
        },
      });
    } finally {
      await misconfigured.close();
    }
    // Nothing listens where Stripe should be.
    const unreachable = await buildTestApp({ env: stripeEnv({ STRIPE_API_URL: `http://127.0.0.1:${await findFreePort()}` }) });
    try {
      expect(await checkoutOn(unreachable)).toEqual({
        status: 503,
        body: { error: { code: 'ENGINE_UNAVAILABLE', message: 'The payment service is not answering just now. Try again in a minute.' } },
      });
    } finally {
      await unreachable.close();
    }
    // A name for the local Stripe that resolves to loopback, where private networks are not allowed:
    // the start-up check cannot see the address, the guard sees it as the connection opens.
    const before = stripe.requests.length;
    const refused = await buildTestApp({
      env: stripeEnv({ STRIPE_API_URL: stripe.url.replace('127.0.0.1', 'localhost'), OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'false' }),
    });
    try {
      expect(await checkoutOn(refused)).toEqual({
        status: 500,
        body: {
          error: {
            code: 'INTERNAL',
            message:
              'The payment service cannot be reached from this installation to create your customer record. The administrator of this installation can see why in the server log.',
          },
        },
      });
      expect(stripe.requests.length).toBe(before);
    } finally {
      await refused.close();
    }
  });

  it('without Stripe configured there is nothing to buy and no webhook route', async () => {
    const other = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' } });
    try {
      const { token } = await signUpUser(other.app, 'no-billing');
      const answer = await other.app.inject({
        method: 'POST',
        url: '/api/v1/billing/checkout',
        headers: { authorization: `Bearer ${token}` },
        payload: { plan: 'pro' },
      });
      expect({ status: answer.statusCode, body: answer.json() }).toEqual({
        status: 409,
        body: { error: { code: 'CONFLICT', message: 'This installation takes no payments: billing is not configured.' } },
      });
      expect((await other.app.inject({ method: 'POST', url: '/billing/stripe/webhook', payload: {} })).statusCode).toBe(404);
    } finally {
      await other.close();
    }
  });
});
