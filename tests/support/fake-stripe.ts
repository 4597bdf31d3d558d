import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local server that speaks the part of Stripe's API Parley uses, for tests: form-encoded requests
 * with a secret key (Stripe's JSON error shape otherwise), customers, Checkout sessions, Customer
 * Portal sessions and subscriptions with trials, plan changes and cancelling at the period's end,
 * and invoices whose payments fail (`invoice.payment_failed`, Stripe retrying) or are paid.
 * It signs the webhooks it sends the way Stripe does (`Stripe-Signature: t=…,v1=HMAC-SHA256(secret,
 * "t.payload")`) and has a clock a test moves on: trials and periods end as they would.
 * Checkout and the portal are small HTML pages a browser test can click through.
 */

type Json = Record<string, unknown>;
type Subscription = {
  id: string;
  customer: string;
  status: 'trialing' | 'active' | 'past_due' | 'canceled';
  priceId: string;
  itemId: string;
  trialEnd: number | null;
  periodStart: number;
  periodEnd: number;
  cancelAtPeriodEnd: boolean;
  canceledAt: number | null;
};
type Customer = { id: string; email: string | null; name: string | null; address: Json | null; metadata: Json; card: string | null };
type CheckoutSession = {
  id: string;
  customer: string;
  priceId: string;
  clientReferenceId: string | null;
  trialDays: number | null;
  successUrl: string;
  cancelUrl: string;
  subscription: string | null;
};
type Invoice = {
  id: string;
  customer: string;
  subscription: string;
  status: 'open' | 'paid' | 'void';
  amountDue: number;
  currency: string;
  attemptCount: number;
  nextPaymentAttempt: number | null;
};
type WebhookDelivery = { id: string; type: string; status: number; body: string };

const PERIOD_SECONDS = 30 * 86_400;

/** Stripe's form encoding (`a[b][0][c]=v`) read back into objects and arrays. */
export function parseStripeForm(body: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.split(/\[|\]\[|\]/).filter((part) => part !== '');
    let node: Record<string, unknown> = root;
    path.forEach((part, index) => {
      if (index === path.length - 1) node[part] = value;
      else node = (node[part] ??= /^\d+$/.test(path[index + 1]!) ? [] : {}) as Record<string, unknown>;
    });
  }
  return root;
}

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;

export async function startFakeStripe(options: { secretKey: string; webhookSecret: string; prices: Record<string, string> }) {
  let webhookUrl: string | undefined;
  let clock = Math.floor(Date.now() / 1000);
  const customers = new Map<string, Customer>();
  const sessions = new Map<string, CheckoutSession>();
  const subscriptions = new Map<string, Subscription>();
  const invoices = new Map<string, Invoice>();
  const deliveries: WebhookDelivery[] = [];
  const requests: { method: string; path: string; body: Json; idempotencyKey: string | undefined }[] = [];
  /** Answers by Idempotency-Key, as Stripe keeps them: the same key and parameters get the first answer again. */
  const idempotent = new Map<string, { method: string; path: string; text: string; answer: { status: number; body: Json } }>();
  const knownPrices = new Set(Object.values(options.prices));
  const id = (prefix: string) => `${prefix}_test_${crypto.randomBytes(8).toString('hex')}`;

  const subscriptionObject = (s: Subscription): Json => ({
    id: s.id,
    object: 'subscription',
    customer: s.customer,
    status: s.status,
    trial_end: s.trialEnd,
    cancel_at_period_end: s.cancelAtPeriodEnd,
    canceled_at: s.canceledAt,
    created: s.periodStart,
    items: {
      object: 'list',
      data: [
        {
          id: s.itemId,
          object: 'subscription_item',
          price: { id: s.priceId, object: 'price' },
          quantity: 1,
          current_period_start: s.periodStart,
          current_period_end: s.periodEnd,
        },
      ],
    },
  });
  const invoiceObject = (i: Invoice): Json => ({
    id: i.id,
    object: 'invoice',
    customer: i.customer,
    status: i.status,
    amount_due: i.amountDue,
    amount_paid: i.status === 'paid' ? i.amountDue : 0,
    amount_remaining: i.status === 'paid' ? 0 : i.amountDue,
    currency: i.currency,
    attempt_count: i.attemptCount,
    attempted: i.attemptCount > 0,
    next_payment_attempt: i.nextPaymentAttempt,
    billing_reason: 'subscription_cycle',
    parent: { type: 'subscription_details', subscription_details: { subscription: i.subscription } },
  });
  const customerObject = (c: Customer): Json => ({ id: c.id, object: 'customer', email: c.email, name: c.name, address: c.address, metadata: c.metadata });

  /** Stripe's signature over the exact bytes sent: the library checks it, with a 5-minute tolerance on the real time. */
  const sign = (payload: string, secret = options.webhookSecret, at = Math.floor(Date.now() / 1000)) =>
    `t=${at},v1=${crypto.createHmac('sha256', secret).update(`${at}.${payload}`).digest('hex')}`;

  const deliver = async (event: Json, signature?: string): Promise<WebhookDelivery> => {
    if (!webhookUrl) throw new Error('no webhook URL: call setWebhookUrl first');
    const body = JSON.stringify(event);
    const response = await fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature ?? sign(body) },
      body,
    });
    const delivery = { id: String(event.id), type: String(event.type), status: response.status, body: await response.text() };
    deliveries.push(delivery);
    return delivery;
  };
  const eventOf = (type: string, object: Json): Json => ({
    id: id('evt'),
    object: 'event',
    type,
    created: clock,
    api_version: '2025-01-01',
    data: { object },
    livemode: false,
  });
  const emit = (type: string, object: Json) => deliver(eventOf(type, object));

  const complete = async (sessionId: string): Promise<Subscription> => {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`no Checkout session ${sessionId}`);
    if (session.subscription) return subscriptions.get(session.subscription)!;
    const trialEnd = session.trialDays ? clock + session.trialDays * 86_400 : null;
    const subscription: Subscription = {
      id: id('sub'),
      customer: session.customer,
      status: trialEnd ? 'trialing' : 'active',
      priceId: session.priceId,
      itemId: id('si'),
      trialEnd,
      periodStart: clock,
      periodEnd: trialEnd ?? clock + PERIOD_SECONDS,
      cancelAtPeriodEnd: false,
      canceledAt: null,
    };
    // Without a trial, Checkout took a card.
    if (!trialEnd) customers.get(session.customer)!.card ??= '4242';
    subscriptions.set(subscription.id, subscription);
    session.subscription = subscription.id;
    await emit('checkout.session.completed', {
      id: session.id,
      object: 'checkout.session',
      customer: session.customer,
      client_reference_id: session.clientReferenceId,
      subscription: subscription.id,
      mode: 'subscription',
      status: 'complete',
    });
    await emit('customer.subscription.created', subscriptionObject(subscription));
    return subscription;
  };

  const end = async (s: Subscription) => {
    s.status = 'canceled';
    s.canceledAt = clock;
    await emit('customer.subscription.deleted', subscriptionObject(s));
  };

  /** The clock moves on: trials end (a subscription without a card is cancelled, as Parley's Checkout asks), periods renew or end. */
  const advance = async (seconds: number) => {
    clock += seconds;
    for (const s of subscriptions.values()) {
      if (s.status === 'canceled') continue;
      if (s.status === 'trialing' && s.trialEnd !== null && clock >= s.trialEnd) {
        if (!customers.get(s.customer)?.card) {
          await end(s);
          continue;
        }
        s.status = 'active';
        s.trialEnd = s.trialEnd ?? null;
        s.periodStart = s.periodEnd;
        s.periodEnd = s.periodStart + PERIOD_SECONDS;
        await emit('customer.subscription.updated', subscriptionObject(s));
      }
      while (s.status === 'active' && clock >= s.periodEnd) {
        if (s.cancelAtPeriodEnd) {
          await end(s);
          break;
        }
        s.periodStart = s.periodEnd;
        s.periodEnd += PERIOD_SECONDS;
        await emit('customer.subscription.updated', subscriptionObject(s));
      }
    }
  };

  const stripeError = (status: number, message: string, extra: Json = {}) => ({
    status,
    body: { error: { type: 'invalid_request_error', message, ...extra } },
  });
  const missing = (what: string, value: string, param = 'id') => stripeError(404, `No such ${what}: '${value}'`, { code: 'resource_missing', param });

  const api = (method: string, path: string, body: Json): { status: number; body: Json } => {
    let match: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/customers') {
      const customer: Customer = {
        id: id('cus'),
        email: (body.email as string | undefined) ?? null,
        name: (body.name as string | undefined) ?? null,
        address: (body.address as Json | undefined) ?? null,
        metadata: (body.metadata as Json | undefined) ?? {},
        card: null,
      };
      customers.set(customer.id, customer);
      return { status: 200, body: customerObject(customer) };
    }
    if ((match = /^\/v1\/customers\/([^/]+)$/.exec(path))) {
      const customer = customers.get(match[1]!);
      if (!customer) return missing('customer', match[1]!);
      if (method === 'POST') {
        if (body.email !== undefined) customer.email = body.email as string;
        if (body.name !== undefined) customer.name = body.name as string;
        if (body.address !== undefined) customer.address = body.address as Json;
        if (body.metadata !== undefined) customer.metadata = { ...customer.metadata, ...(body.metadata as Json) };
      }
      return { status: 200, body: customerObject(customer) };
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      if (body.mode !== 'subscription') return stripeError(400, 'This test server makes subscription Checkout sessions only.', { param: 'mode' });
      const customer = String(body.customer ?? '');
      if (!customers.has(customer)) return missing('customer', customer, 'customer');
      const priceId = String(((body.line_items as Json[] | undefined)?.[0] as Json | undefined)?.price ?? '');
      if (!knownPrices.has(priceId)) return missing('price', priceId, 'line_items[0][price]');
      const data = (body.subscription_data ?? {}) as Json;
      const trialDays = data.trial_period_days ? Number(data.trial_period_days) : null;
      if (trialDays && body.payment_method_collection !== 'if_required')
        return stripeError(400, 'A trial without a card needs payment_method_collection=if_required.', { param: 'payment_method_collection' });
      const session: CheckoutSession = {
        id: id('cs'),
        customer,
        priceId,
        clientReferenceId: (body.client_reference_id as string | undefined) ?? null,
        trialDays,
        successUrl: String(body.success_url),
        cancelUrl: String(body.cancel_url),
        subscription: null,
      };
      sessions.set(session.id, session);
      return {
        status: 200,
        body: { id: session.id, object: 'checkout.session', url: `${base}/checkout/${session.id}`, mode: 'subscription', customer, status: 'open' },
      };
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const customer = String(body.customer ?? '');
      if (!customers.has(customer)) return missing('customer', customer, 'customer');
      const portalId = id('bps');
      portals.set(portalId, { customer, returnUrl: String(body.return_url) });
      return {
        status: 200,
        body: { id: portalId, object: 'billing_portal.session', customer, url: `${base}/portal/${portalId}`, return_url: body.return_url },
      };
    }
    if (method === 'GET' && (match = /^\/v1\/invoices\/([^/]+)$/.exec(path))) {
      const invoice = invoices.get(match[1]!);
      return invoice ? { status: 200, body: invoiceObject(invoice) } : missing('invoice', match[1]!);
    }
    if ((match = /^\/v1\/subscriptions\/([^/]+)$/.exec(path))) {
      const s = subscriptions.get(match[1]!);
      if (!s) return missing('subscription', match[1]!);
      if (method === 'DELETE') {
        if (s.status === 'canceled') return stripeError(400, 'This subscription is already canceled.');
        s.status = 'canceled';
        s.canceledAt = clock;
        void emit('customer.subscription.deleted', subscriptionObject(s)).catch(() => undefined);
      }
      if (method === 'POST') {
        if (s.status === 'canceled') return stripeError(400, 'A canceled subscription can only update its metadata.');
        if (body.cancel_at_period_end !== undefined) s.cancelAtPeriodEnd = body.cancel_at_period_end === 'true';
        const items = body.items as Json[] | undefined;
        if (items?.[0]) {
          const price = String(items[0].price ?? '');
          if (!knownPrices.has(price)) return missing('price', price, 'items[0][price]');
          if (items[0].id !== s.itemId) return missing('subscription item', String(items[0].id), 'items[0][id]');
          s.priceId = price;
        }
        void emit('customer.subscription.updated', subscriptionObject(s)).catch(() => undefined);
      }
      return { status: 200, body: subscriptionObject(s) };
    }
    return stripeError(404, `Unrecognized request URL (${method}: ${path}).`);
  };

  const portals = new Map<string, { customer: string; returnUrl: string }>();
  const page = (title: string, content: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>${content}</main></body></html>`;

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const url = new URL(request.url ?? '/', base);
        const text = Buffer.concat(chunks).toString('utf8');
        let match: RegExpExecArray | null;
        // The pages a person sees on Stripe: Checkout and the portal.
        if ((match = /^\/checkout\/([^/]+)(\/complete)?$/.exec(url.pathname))) {
          const session = sessions.get(match[1]!);
          if (!session) return void response.writeHead(404).end('No such Checkout session');
          if (match[2] && request.method === 'POST') {
            await complete(session.id);
            return void response.writeHead(303, { location: session.successUrl }).end();
          }
          const action = session.trialDays ? `Start ${session.trialDays}-day free trial` : 'Subscribe';
          return void response
            .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
            .end(
              page(
                'Checkout',
                `<p>${session.priceId}${session.trialDays ? ': no card needed for the trial' : ''}</p><form method="post" action="/checkout/${session.id}/complete"><button type="submit">${action}</button></form><a href="${session.cancelUrl}">Back</a>`,
              ),
            );
        }
        if ((match = /^\/portal\/([^/]+)(\/card)?$/.exec(url.pathname))) {
          const portal = portals.get(match[1]!);
          if (!portal) return void response.writeHead(404).end('No such portal session');
          const customer = customers.get(portal.customer)!;
          if (match[2] && request.method === 'POST') {
            customer.card = '4242';
            return void response.writeHead(303, { location: `/portal/${match[1]}` }).end();
          }
          return void response
            .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
            .end(
              page(
                'Billing portal',
                `<p>${customer.card ? `Visa ending in ${customer.card}` : 'No card on file'}</p><form method="post" action="/portal/${match[1]}/card"><button type="submit">Add card</button></form><h2>Invoice history</h2><p>No invoices yet.</p><a href="${portal.returnUrl}">Return to Parley</a>`,
              ),
            );
        }
        if (request.headers.authorization !== `Bearer ${options.secretKey}`) {
          const error = stripeError(401, 'Invalid API Key provided: sk_test_****');
          return void response.writeHead(error.status, { 'content-type': 'application/json' }).end(JSON.stringify(error.body));
        }
        const body = request.headers['content-type']?.startsWith('application/x-www-form-urlencoded') ? parseStripeForm(text) : {};
        const method = request.method ?? 'GET';
        const key = typeof request.headers['idempotency-key'] === 'string' ? request.headers['idempotency-key'] : undefined;
        requests.push({ method, path: url.pathname, body, idempotencyKey: key });
        const seen = method === 'POST' && key !== undefined ? idempotent.get(key) : undefined;
        if (seen && (seen.method !== method || seen.path !== url.pathname || seen.text !== text)) {
          const error = stripeError(
            400,
            `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
            { type: 'idempotency_error' },
          );
          return void response.writeHead(error.status, { 'content-type': 'application/json' }).end(JSON.stringify(error.body));
        }
        const answer = seen?.answer ?? api(method, url.pathname, body);
        // Stripe keeps an answer under its key unless it was a server error.
        if (method === 'POST' && key !== undefined && !seen && answer.status < 500) idempotent.set(key, { method, path: url.pathname, text, answer });
        response
          .writeHead(answer.status, { 'content-type': 'application/json', 'request-id': id('req'), ...(seen ? { 'idempotent-replayed': 'true' } : {}) })
          .end(JSON.stringify(answer.body));
      })().catch((error: unknown) => {
        response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    setWebhookUrl: (url: string) => {
      webhookUrl = url;
    },
    /** Seconds since the epoch on this server's clock. */
    now: () => clock,
    advance,
    /** Completes a Checkout session as a person clicking through it would (the webhooks follow). */
    completeCheckout: (sessionId: string) => complete(sessionId),
    /** The newest Checkout session (tests open its page or complete it). */
    lastCheckout: () => [...sessions.values()].at(-1),
    /** A renewal's payment fails: the subscription is past_due while Stripe retries it. Answers the event sent (to replay) and its delivery. */
    failPayment: async (subscriptionId: string) => {
      const s = subscriptions.get(subscriptionId);
      if (!s) throw new Error(`no subscription ${subscriptionId}`);
      s.status = 'past_due';
      const event = eventOf('customer.subscription.updated', subscriptionObject(s));
      return { event, delivery: await deliver(event) };
    },
    /**
     * A payment of the subscription's open invoice fails (the first makes the invoice; each later one
     * is Stripe's next try at the same invoice), three days until the next try. Answers the invoice,
     * the event sent (to replay) and its delivery.
     */
    failInvoice: async (subscriptionId: string) => {
      const s = subscriptions.get(subscriptionId);
      if (!s) throw new Error(`no subscription ${subscriptionId}`);
      let invoice = [...invoices.values()].find((i) => i.subscription === subscriptionId && i.status === 'open');
      if (!invoice) {
        const amount = { [options.prices.pro ?? '']: 1299, [options.prices.business ?? '']: 2499 }[s.priceId] ?? 1000;
        invoice = {
          id: id('in'),
          customer: s.customer,
          subscription: s.id,
          status: 'open',
          amountDue: amount,
          currency: 'usd',
          attemptCount: 0,
          nextPaymentAttempt: null,
        };
        invoices.set(invoice.id, invoice);
      }
      invoice.attemptCount += 1;
      invoice.nextPaymentAttempt = clock + 3 * 86_400;
      const event = eventOf('invoice.payment_failed', invoiceObject(invoice));
      return { invoice: { ...invoice }, event, delivery: await deliver(event) };
    },
    /** The invoice is paid after all (a new card in the portal, or Stripe's next try). */
    payInvoice: async (invoiceId: string) => {
      const invoice = invoices.get(invoiceId);
      if (!invoice) throw new Error(`no invoice ${invoiceId}`);
      invoice.status = 'paid';
      invoice.nextPaymentAttempt = null;
      return emit('invoice.paid', invoiceObject(invoice));
    },
    /** The invoice is voided (in Stripe's dashboard): nothing is owed. */
    voidInvoice: async (invoiceId: string) => {
      const invoice = invoices.get(invoiceId);
      if (!invoice) throw new Error(`no invoice ${invoiceId}`);
      invoice.status = 'void';
      invoice.nextPaymentAttempt = null;
      return emit('invoice.voided', invoiceObject(invoice));
    },
    /** The retried payment went through: active again. */
    recoverPayment: async (subscriptionId: string) => {
      const s = subscriptions.get(subscriptionId)!;
      s.status = 'active';
      return emit('customer.subscription.updated', subscriptionObject(s));
    },
    addCard: (customerId: string) => {
      customers.get(customerId)!.card = '4242';
    },
    customer: (customerId: string) => customers.get(customerId),
    /** Every customer made, with the Parley account each was made for. */
    customers: () => [...customers.entries()].map(([customerId, c]) => ({ id: customerId, userId: c.metadata.parley_user_id })),
    subscription: (subscriptionId: string) => subscriptions.get(subscriptionId),
    /** Sends an event as Stripe would, or with another signature (a forged one) or an event sent before (a replay). */
    send: (event: Json, signature?: string) => deliver(event, signature),
    eventOf,
    sign,
    deliveries,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
