import http from 'node:http';
import https from 'node:https';
import type { FastifyBaseLogger as Logger } from 'fastify';
import Stripe from 'stripe';
import type { Config } from '#server/config.ts';
import { AppError } from '#server/lib/app-error.ts';
import { guardedLookup, OutboundError } from '#server/lib/outbound/outbound-fetch.ts';

/** A subscription as billing keeps it: Stripe's state, read from an API answer (never from a webhook's copy). */
export type SubscriptionState = {
  id: string;
  customerId: string;
  status: string;
  priceId: string | undefined;
  trialEnd: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
};

/** An invoice as billing reads it from Stripe (never from a webhook's copy): whose, whether paid, what is due and when Stripe tries again. */
export type InvoiceState = {
  id: string;
  customerId: string;
  /** Stripe's status: draft, open (unpaid), paid, uncollectible, void. */
  status: string;
  amountDue: number;
  currency: string;
  attemptCount: number;
  nextAttemptAt: Date | null;
};

/** The customer's details from Settings › Billing › Billing Information. */
export type CustomerDetails = {
  name: string;
  email: string;
  company: string;
  address: string;
  city: string;
  state: string;
  zip: string;
  country: string;
};

const seconds = (value: number | null | undefined) => (value ? new Date(value * 1000) : null);

function stateOf(subscription: Stripe.Subscription): SubscriptionState {
  const item = subscription.items.data[0];
  return {
    id: subscription.id,
    customerId: typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id,
    status: subscription.status,
    priceId: item?.price.id,
    trialEnd: seconds(subscription.trial_end),
    currentPeriodEnd: seconds(item?.current_period_end),
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
  };
}

/** What a Stripe customer is told of the person: their billing name (or company) and address. */
function customerFields(details: CustomerDetails) {
  const optional = (value: string) => value.trim() || undefined;
  return {
    email: details.email.trim() || undefined,
    name: optional(details.company) ?? optional(details.name),
    address: {
      line1: details.address.trim(),
      city: details.city.trim(),
      state: details.state.trim(),
      postal_code: details.zip.trim(),
      country: details.country.trim(),
    },
    metadata: { billing_name: details.name.trim(), company: details.company.trim() },
  };
}

export type StripeGateway = ReturnType<typeof createStripeGateway>;

/**
 * The one place Parley speaks to Stripe, through the official library: customers, Checkout for a
 * subscription (with the one 14-day trial without a card), the Customer Portal, plan changes and
 * cancelling at the period's end, and the webhooks' signatures. STRIPE_API_URL points the library
 * at another host (the tests' local Stripe); config.ts checked it against the outbound policy, and
 * every connection resolves its name through the outbound guard, so a name that resolves to a
 * refused address is refused too.
 */
export function createStripeGateway(config: NonNullable<Config['stripe']>, outbound: Config['outbound'], log: Logger) {
  const url = config.apiUrl ? new URL(config.apiUrl) : undefined;
  const protocol = url?.protocol === 'http:' ? 'http' : 'https';
  const agentOptions = { keepAlive: true, lookup: guardedLookup(outbound.allowPrivateNetworks) };
  const stripe = new Stripe(config.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'Parley' },
    httpAgent: protocol === 'http' ? new http.Agent(agentOptions) : new https.Agent(agentOptions),
    ...(url ? { host: url.hostname, port: url.port || (protocol === 'http' ? 80 : 443), protocol } : {}),
  });
  /**
   * Stripe's failures in words a person can act on: unreachable (try again), or refused (what
   * Stripe said goes to the log for the operator, since it names their configuration).
   */
  const call = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      // The outbound guard refused the address Stripe's host resolved to: the operator's configuration, not an outage.
      if (error instanceof Stripe.errors.StripeConnectionError && error.detail instanceof OutboundError) {
        log.error({ err: error.detail }, `Stripe's address was refused, so Parley could not ${what}`);
        throw new AppError(
          'INTERNAL',
          `The payment service cannot be reached from this installation to ${what}. The administrator of this installation can see why in the server log.`,
          {
            cause: error,
          },
        );
      }
      if (
        error instanceof Stripe.errors.StripeConnectionError ||
        error instanceof Stripe.errors.StripeRateLimitError ||
        error instanceof Stripe.errors.StripeAPIError
      )
        throw new AppError('ENGINE_UNAVAILABLE', 'The payment service is not answering just now. Try again in a minute.', { cause: error });
      if (error instanceof Stripe.errors.StripeError) {
        log.error({ err: error, stripeCode: error.code, stripeType: error.type }, `Stripe refused to ${what}`);
        throw new AppError('INTERNAL', `The payment service refused to ${what}. The administrator of this installation can see why in the server log.`, {
          cause: error,
        });
      }
      throw error;
    }
  };
  return {
    /**
     * The account's customer. The idempotency key is the account's, so two requests at once (two
     * Checkouts in two tabs) get the one customer Stripe made for the first (Stripe keeps a key 24 hours).
     */
    createCustomer: (userId: string, details: CustomerDetails): Promise<string> =>
      call('create your customer record', async () => {
        const fields = customerFields(details);
        const customer = await stripe.customers.create(
          { ...fields, metadata: { ...fields.metadata, parley_user_id: userId } },
          { idempotencyKey: `parley-customer-${userId}` },
        );
        return customer.id;
      }),
    updateCustomer: (customerId: string, details: CustomerDetails): Promise<void> =>
      call('save your billing information', async () => {
        await stripe.customers.update(customerId, customerFields(details));
      }),
    /** Checkout for a subscription to `priceId`; with `trialDays`, no card is asked for and the trial ends the subscription unless one is added. */
    checkout: (input: { userId: string; customerId: string; priceId: string; trialDays: number | undefined; successUrl: string; cancelUrl: string }) =>
      call('open Checkout', async () => {
        const session = await stripe.checkout.sessions.create({
          mode: 'subscription',
          customer: input.customerId,
          client_reference_id: input.userId,
          line_items: [{ price: input.priceId, quantity: 1 }],
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          metadata: { parley_user_id: input.userId },
          ...(input.trialDays
            ? {
                payment_method_collection: 'if_required' as const,
                subscription_data: {
                  trial_period_days: input.trialDays,
                  trial_settings: { end_behavior: { missing_payment_method: 'cancel' as const } },
                  metadata: { parley_user_id: input.userId },
                },
              }
            : { subscription_data: { metadata: { parley_user_id: input.userId } } }),
        });
        if (!session.url) throw new Error('Stripe answered a Checkout session without its URL');
        return session.url;
      }),
    /** The Customer Portal: the card, invoices and their history. */
    portal: (customerId: string, returnUrl: string): Promise<string> =>
      call('open the billing portal', async () => (await stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl })).url),
    /** The invoice, or undefined when Stripe has none by that id (an event of another Stripe account's, or a forged id). */
    invoice: (id: string): Promise<InvoiceState | undefined> =>
      call('read your invoice', async () => {
        let invoice: Stripe.Invoice;
        try {
          invoice = await stripe.invoices.retrieve(id);
        } catch (error) {
          if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing') return undefined;
          throw error;
        }
        const customer = invoice.customer;
        return {
          id: invoice.id ?? id,
          customerId: typeof customer === 'string' ? customer : (customer?.id ?? ''),
          status: invoice.status ?? 'draft',
          amountDue: invoice.amount_due,
          currency: invoice.currency,
          attemptCount: invoice.attempt_count,
          nextAttemptAt: seconds(invoice.next_payment_attempt),
        };
      }),
    subscription: (id: string): Promise<SubscriptionState> => call('read your subscription', async () => stateOf(await stripe.subscriptions.retrieve(id))),
    /** Ends the subscription now (the account is being deleted). */
    cancelNow: (id: string): Promise<SubscriptionState> => call('end your subscription', async () => stateOf(await stripe.subscriptions.cancel(id))),
    setCancelAtPeriodEnd: (id: string, cancel: boolean): Promise<SubscriptionState> =>
      call('cancel your subscription', async () => stateOf(await stripe.subscriptions.update(id, { cancel_at_period_end: cancel }))),
    /** Moves the subscription to another price: an upgrade is invoiced at once (prorated); a downgrade takes effect from the next invoice. */
    changePrice: (id: string, priceId: string, upgrade: boolean): Promise<SubscriptionState> =>
      call('change your plan', async () => {
        const current = await stripe.subscriptions.retrieve(id);
        const item = current.items.data[0];
        if (!item) throw new Error(`Stripe subscription ${id} has no item`);
        return stateOf(
          await stripe.subscriptions.update(id, {
            items: [{ id: item.id, price: priceId }],
            proration_behavior: upgrade ? 'always_invoice' : 'none',
            cancel_at_period_end: false,
          }),
        );
      }),
    /** A webhook's event, once its Stripe-Signature proves it came from Stripe with this endpoint's secret (else it throws). */
    verifyEvent: (payload: Buffer, signature: string): Stripe.Event => stripe.webhooks.constructEvent(payload, signature, config.webhookSecret),
  };
}

export { Stripe };
