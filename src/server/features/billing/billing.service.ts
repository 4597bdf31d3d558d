import type { FastifyBaseLogger as Logger } from 'fastify';
import { formatAmount, PLAN_IDS, PLANS, TRIAL_DAYS, type BillingOverview, type PaidPlanId, type PlanId, type PlanLimits } from '#shared/contracts/billing.ts';
import type { ExportFormat } from '#shared/contracts/meetings.ts';
import type { Db } from '#server/db/create-db.ts';
import type { EventRecorder } from '#server/events/domain-events.ts';
import { AppError } from '#server/lib/app-error.ts';
import {
  assignPlan,
  billingAccountOf,
  claimCustomer,
  countUsage,
  enterPastDue,
  giveUsageBack,
  openPaymentFailureOf,
  recordPaymentFailure,
  resolvePaymentFailure,
  planIdOf,
  recordWebhookEvent,
  saveSubscription,
  usageSecondsBetween,
  userIdOfCustomer,
  webhookEventSeen,
  type BillingAccountRow,
} from './billing.repository.ts';
import { paymentFailedEmail, pastDueEmail, type BillingEmail } from './billing-emails.ts';
import type { CustomerDetails, InvoiceState, StripeGateway, SubscriptionState } from './stripe-gateway.ts';

/** What billing counts of the meetings feature (deps.ts hands it over); hours come from billing's own usage ledger. */
export type MeetingUsagePort = {
  /** How many of the owner's own meetings (samples aside) were added since `since`. */
  countAddedSince: (ownerId: string, since: Date) => Promise<number>;
  /** How many of the owner's meetings were added before `before` (what a plan's history hides). */
  countAddedBefore: (ownerId: string, before: Date) => Promise<number>;
};

type AppliedPlan = { id: PlanId; source: 'administrator' | 'subscription' | 'default'; limits: PlanLimits };
/** The features a plan has or has not (its on/off limits). */
type PlanFeature = { [K in keyof PlanLimits]: PlanLimits[K] extends boolean ? K : never }[keyof PlanLimits];

/** Stripe's statuses in which the subscription's plan applies (past_due: Stripe is still retrying the payment). */
const LIVE_STATUSES = new Set(['trialing', 'active', 'past_due']);
const rank = (plan: PlanId) => PLAN_IDS.indexOf(plan);

/** What billing needs of Stripe and of the person (deps.ts hands it over when Stripe is configured). */
export type StripeBilling = {
  gateway: StripeGateway;
  prices: Readonly<Record<PaidPlanId, string>>;
  /** Settings › Billing › Billing Information (the account's name and email until saved). */
  detailsOf: (userId: string) => Promise<CustomerDetails>;
  /** Where Checkout and the portal send the person back to: Settings › Billing. */
  returnUrl: string;
  /** The webhook's state changes and the events they raise (a payment that failed) commit together. */
  events: EventRecorder;
  /** Billing's notices to the person (a payment that failed), through the installation's mailer. */
  sendEmail: (email: BillingEmail) => Promise<void>;
};

const DAY_MS = 86_400_000;
const FORMAT_NAMES: Record<ExportFormat, string> = { txt: 'text', md: 'Markdown', docx: 'DOCX', pdf: 'PDF', srt: 'SRT', vtt: 'WebVTT' };
const hours = (seconds: number) => Math.round((seconds / 3600) * 10) / 10;
const list = (items: readonly string[]) => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/** The calendar month (UTC) `now` falls in: plan hours are counted per month. */
export function monthOf(now: Date): { start: Date; end: Date } {
  return { start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)), end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)) };
}

export type BillingService = ReturnType<typeof createBillingService>;

/**
 * Plans and their limits (spec §9's pricing page), enforced where each feature is used: transcription
 * hours a month (recording, upload, import, Retry), participants per meeting, export formats, history (older
 * meetings hidden, never deleted), real-time transcription, API access, team management and custom vocabulary. Without
 * Stripe configured nobody is limited unless the administrator assigned them a plan; with it, an
 * account's plan is its assigned one, else its subscription's, else Free. Refusals name the plan and
 * the way up. With Stripe it also sells the plans: Checkout (the one 14-day trial without a card),
 * the Customer Portal, plan changes, Cancel Subscription, and the webhooks that keep the state.
 */
export function createBillingService(deps: { db: Db; meetings: MeetingUsagePort; stripe?: StripeBilling | undefined; now: () => Date; log: Logger }) {
  const { db, meetings, stripe } = deps;
  const payments = stripe !== undefined;

  /** The plan of a stored account row: assigned, else a live subscription's (or a downgrade's kept plan until its period ends), else Free with billing. */
  const appliedPlan = (row: BillingAccountRow | undefined): AppliedPlan | undefined => {
    const assigned = row ? planIdOf(row.assigned_plan) : undefined;
    if (assigned) return { id: assigned, source: 'administrator', limits: PLANS[assigned].limits };
    if (!payments) return undefined;
    const subscribed = row?.subscription_status && LIVE_STATUSES.has(row.subscription_status) ? planIdOf(row.subscription_plan) : undefined;
    const kept = row?.kept_until && Date.parse(row.kept_until) > deps.now().getTime() ? planIdOf(row.kept_plan) : undefined;
    const paid = kept && (!subscribed || rank(kept) > rank(subscribed)) ? kept : subscribed;
    if (paid) return { id: paid, source: 'subscription', limits: PLANS[paid].limits };
    return { id: 'free', source: 'default', limits: PLANS.free.limits };
  };
  const planOf = async (userId: string): Promise<AppliedPlan | undefined> => appliedPlan(await billingAccountOf(db, userId));

  /** The first plan above `current` that allows it, and how to get there. */
  const upgradePath = (current: PlanId, allows: (limits: PlanLimits) => boolean, benefit: (limits: PlanLimits) => string): string => {
    const to = PLAN_IDS.slice(PLAN_IDS.indexOf(current) + 1).find((id) => allows(PLANS[id].limits));
    if (!to) return '';
    const name = PLANS[to].name;
    const what = benefit(PLANS[to].limits);
    if (to === 'enterprise' && payments) return ` Contact sales about the Enterprise plan for ${what}.`;
    return payments
      ? ` Upgrade to ${name} in Settings › Billing for ${what}.`
      : ` Ask the administrator of this installation to move your account to the ${name} plan for ${what}.`;
  };

  /**
   * Why `feature` is not for this plan ("<what> is not included in your Pro plan<consequence>.") with
   * the way up, or undefined when the plan includes it.
   */
  const notIncluded = (plan: AppliedPlan, feature: PlanFeature, what: string, benefit: string, consequence = ''): string | undefined =>
    plan.limits[feature]
      ? undefined
      : `${what} is not included in your ${PLANS[plan.id].name} plan${consequence}.` +
        upgradePath(
          plan.id,
          (l) => l[feature],
          () => benefit,
        );

  const requireStripe = (): StripeBilling => {
    if (!stripe) throw new AppError('CONFLICT', 'This installation takes no payments: billing is not configured.');
    return stripe;
  };

  const subscriptionOf = (row: BillingAccountRow | undefined): BillingOverview['subscription'] => {
    const plan = row ? planIdOf(row.subscription_plan) : undefined;
    if (!row?.subscription_status || !plan) return null;
    const kept = planIdOf(row.kept_plan);
    const keptLive = kept !== undefined && row.kept_until !== null && Date.parse(row.kept_until) > deps.now().getTime();
    return {
      plan,
      planName: PLANS[plan].name,
      status: row.subscription_status,
      trialEndsAt: row.trial_ends_at,
      currentPeriodEnd: row.current_period_end,
      cancelAtPeriodEnd: row.cancel_at_period_end === 1,
      keptPlan: keptLive && row.kept_until ? { id: kept, name: PLANS[kept].name, until: row.kept_until } : null,
    };
  };

  /**
   * The account's Stripe customer, made (with its Billing Information) the first time. Two requests
   * at once make one: Stripe answers both with one customer (the gateway's idempotency key is the
   * account's), and the first customer kept is the one both go on with whatever Stripe answered.
   */
  const customerOf = async (userId: string, row: BillingAccountRow | undefined): Promise<string> => {
    if (row?.stripe_customer_id) return row.stripe_customer_id;
    const billing = requireStripe();
    const made = await billing.gateway.createCustomer(userId, await billing.detailsOf(userId));
    const kept = await claimCustomer(db, userId, made, deps.now());
    if (kept !== made) deps.log.warn({ userId, kept, made }, 'a second Stripe customer was made for an account; the first is kept');
    return kept;
  };

  const liveSubscription = async (userId: string): Promise<BillingAccountRow & { subscription_id: string }> => {
    const row = await billingAccountOf(db, userId);
    if (!row?.subscription_id || !row.subscription_status || !LIVE_STATUSES.has(row.subscription_status))
      throw new AppError('CONFLICT', 'You have no subscription: choose a plan in Settings › Billing first.');
    return { ...row, subscription_id: row.subscription_id };
  };

  const planOfPrice = (priceId: string | undefined) => Object.entries(stripe?.prices ?? {}).find(([, price]) => price === priceId)?.[0] ?? null;

  /** Keeps Stripe's answer about the subscription; a subscription that ended takes any kept plan with it. */
  const applySubscription = async (userId: string, state: SubscriptionState, kept?: { kept_plan: string | null; kept_until: string | null }, trx: Db = db) => {
    const plan = planOfPrice(state.priceId);
    const ended = !LIVE_STATUSES.has(state.status);
    await saveSubscription(
      trx,
      userId,
      {
        subscription_id: state.id,
        subscription_status: state.status,
        subscription_plan: plan,
        trial_ends_at: state.trialEnd?.toISOString() ?? null,
        current_period_end: state.currentPeriodEnd?.toISOString() ?? null,
        cancel_at_period_end: state.cancelAtPeriodEnd ? 1 : 0,
        ...(ended ? { kept_plan: null, kept_until: null } : (kept ?? {})),
        // The one trial is used once a subscription of the account has existed.
        trial_used: 1,
      },
      deps.now(),
    );
  };

  /**
   * `invoice.payment_failed`, `invoice.paid`, `invoice.voided`, `invoice.marked_uncollectible`: acted on by reading the invoice as Stripe has it now.
   * An open invoice whose payment was tried is a failure, kept once per invoice (its owner told the
   * first time, in the same transaction: `invoice.payment_failed`); a paid, voided or written-off
   * one ends it, whichever order the events arrive in.
   */
  const invoiceEvent = async (billing: StripeBilling, event: { id: string; type: string }, invoiceId: string): Promise<'processed' | 'ignored'> => {
    const invoice: InvoiceState | undefined = await billing.gateway.invoice(invoiceId);
    const userId = invoice && (await userIdOfCustomer(db, invoice.customerId));
    if (invoice && !userId) deps.log.warn({ eventId: event.id, customer: invoice.customerId }, 'a Stripe webhook names a customer no account has');
    return billing.events.transaction(async (trx, raise) => {
      if (invoice && userId && invoice.status === 'open' && invoice.attemptCount > 0) {
        const failure = {
          invoiceId: invoice.id,
          amountDue: invoice.amountDue,
          currency: invoice.currency,
          attemptCount: invoice.attemptCount,
          nextAttemptAt: invoice.nextAttemptAt,
        };
        if (await recordPaymentFailure(trx, userId, failure, deps.now()))
          raise({
            type: 'invoice.payment_failed',
            actorId: null,
            ownerId: userId,
            teamId: null,
            subject: { type: 'user', id: userId },
            payload: { invoiceId: invoice.id, amountDue: invoice.amountDue, currency: invoice.currency },
          });
      }
      if (invoice && userId && (invoice.status === 'paid' || invoice.status === 'void' || invoice.status === 'uncollectible'))
        await resolvePaymentFailure(trx, invoice.id, deps.now());
      await recordWebhookEvent(trx, event.id, event.type, deps.now());
      return userId ? 'processed' : 'ignored';
    });
  };

  const refuse = (plan: AppliedPlan, message: string) => new AppError('PLAN_LIMIT', message, { details: { plan: plan.id } });

  const customVocabularyRefusal = async (userId: string, known?: AppliedPlan): Promise<AppError | undefined> => {
    const plan = known ?? (await planOf(userId));
    const message = plan && notIncluded(plan, 'customVocabulary', 'Custom vocabulary', 'custom vocabulary');
    return plan && message ? refuse(plan, message) : undefined;
  };

  /** This month's hours come from the usage ledger (deleting a meeting gives none back); the meetings added, from the meetings there are. */
  const usageOf = async (userId: string) => {
    const month = monthOf(deps.now());
    const [seconds, added] = await Promise.all([usageSecondsBetween(db, userId, month.start, month.end), meetings.countAddedSince(userId, month.start)]);
    return { seconds, meetings: added, month };
  };

  return {
    /** The plan whose limits apply to the account; undefined: none (a self-hosted installation's default). */
    planOf,

    /** Meetings added before this (ISO) are hidden from the account by its plan's history; undefined: none are. */
    historySince: async (userId: string): Promise<string | undefined> => {
      const days = (await planOf(userId))?.limits.historyDays;
      return days == null ? undefined : new Date(deps.now().getTime() - days * DAY_MS).toISOString();
    },

    overview: async (userId: string): Promise<BillingOverview> => {
      const row = await billingAccountOf(db, userId);
      const plan = appliedPlan(row);
      const { meetings: meetingsThisMonth, seconds, month } = await usageOf(userId);
      const days = plan?.limits.historyDays;
      const hiddenMeetings = days == null ? 0 : await meetings.countAddedBefore(userId, new Date(deps.now().getTime() - days * DAY_MS));
      const failure = payments ? await openPaymentFailureOf(db, userId) : undefined;
      return {
        billing: payments,
        plan: plan
          ? { id: plan.id, name: PLANS[plan.id].name, source: plan.source, limits: { ...plan.limits, exportFormats: [...plan.limits.exportFormats] } }
          : null,
        subscription: payments ? subscriptionOf(row) : null,
        trialAvailable: payments && row?.trial_used !== 1,
        paymentFailure: failure
          ? {
              amountDue: failure.amount_due,
              currency: failure.currency,
              attempts: failure.attempt_count,
              failedAt: failure.failed_at,
              nextAttemptAt: failure.next_attempt_at,
            }
          : null,
        usage: {
          hoursThisMonth: hours(seconds),
          meetingsThisMonth,
          periodStart: month.start.toISOString(),
          periodEnd: month.end.toISOString(),
          hiddenMeetings,
        },
      };
    },

    /**
     * The usage ledger, written by the meetings feature in the transaction that accepts a meeting's
     * audio for transcription (or imports its transcript), so the hours are counted with it or not
     * at all. Counted once per meeting: a job's own retries and a person's retry after a failure are
     * not counted twice; a transcription that failed for good is given back until it is retried.
     */
    usage: {
      counted: (trx: Db, entry: { meetingId: string; userId: string; source: string; seconds: number }) => countUsage(trx, entry, deps.now()),
      givenBack: (trx: Db, meetingId: string) => giveUsageBack(trx, meetingId, deps.now()),
    },

    /** A new recording, upload or import, or a Retry of a failed transcription: refused once the month's transcription hours are used up. */
    assertCanTranscribe: async (userId: string): Promise<void> => {
      const plan = await planOf(userId);
      const limit = plan?.limits.hoursPerMonth;
      if (!plan || limit == null) return;
      const { seconds, month } = await usageOf(userId);
      if (seconds < limit * 3600) return;
      const renews = month.end.toLocaleDateString('en-US', { month: 'long', day: 'numeric', timeZone: 'UTC' });
      throw refuse(
        plan,
        `Your ${PLANS[plan.id].name} plan includes ${limit} transcription hours a month and you have used ${hours(seconds)} this month, so nothing more can be recorded, uploaded or imported until ${renews}.` +
          upgradePath(
            plan.id,
            (l) => l.hoursPerMonth === null || l.hoursPerMonth > limit,
            (l) => (l.hoursPerMonth === null ? 'unlimited hours' : `${l.hoursPerMonth} hours a month`),
          ),
      );
    },

    /** A meeting listing `count` participants. */
    assertParticipants: async (userId: string, count: number): Promise<void> => {
      const plan = await planOf(userId);
      const limit = plan?.limits.participantsPerMeeting;
      if (!plan || limit == null || count <= limit) return;
      throw refuse(
        plan,
        `Your ${PLANS[plan.id].name} plan allows ${limit} participants per meeting; this meeting lists ${count}.` +
          upgradePath(
            plan.id,
            (l) => l.participantsPerMeeting === null || l.participantsPerMeeting >= count,
            () => 'unlimited participants',
          ),
      );
    },

    /** A meeting exported as a file of this format. */
    assertExport: async (userId: string, format: ExportFormat): Promise<void> => {
      const plan = await planOf(userId);
      if (!plan || plan.limits.exportFormats.includes(format)) return;
      const formats = list(plan.limits.exportFormats.map((f) => FORMAT_NAMES[f]));
      throw refuse(
        plan,
        `Your ${PLANS[plan.id].name} plan exports as ${formats} only; ${FORMAT_NAMES[format]} is not included.` +
          upgradePath(
            plan.id,
            (l) => l.exportFormats.includes(format),
            (l) =>
              l.exportFormats.length === PLANS.enterprise.limits.exportFormats.length
                ? 'all export formats'
                : `export as ${list(l.exportFormats.map((f) => FORMAT_NAMES[f]))}`,
          ),
      );
    },

    /** Why the live transcript is not for this account (said on the socket), or undefined. */
    liveRefusal: async (userId: string): Promise<string | undefined> => {
      const plan = await planOf(userId);
      return (
        plan &&
        notIncluded(plan, 'liveTranscription', 'Real-time transcription', 'real-time transcription', '; the recording goes on and is transcribed once saved')
      );
    },

    /** Personal API tokens: made and used only with API access. */
    assertApiAccess: async (userId: string): Promise<void> => {
      const plan = await planOf(userId);
      const message = plan && notIncluded(plan, 'apiAccess', 'API access', 'API access');
      if (plan && message) throw refuse(plan, message);
    },

    /** Creating a team or inviting to one. */
    assertTeamManagement: async (userId: string): Promise<void> => {
      const plan = await planOf(userId);
      const message = plan && notIncluded(plan, 'teamManagement', 'Team management (creating teams and inviting members)', 'team management');
      if (plan && message) throw refuse(plan, message);
    },

    /**
     * Custom vocabulary (spec §9: from Pro): saved only with it, and given to transcription and the
     * notes only while the meeting owner's plan includes it (a vocabulary kept from a better plan waits).
     */
    assertCustomVocabulary: async (userId: string): Promise<void> => {
      const refusal = await customVocabularyRefusal(userId);
      if (refusal) throw refusal;
    },
    /** Whether the account's plan includes custom vocabulary, and what Settings › Recording says about it. */
    customVocabulary: async (userId: string): Promise<{ included: boolean; note: string }> => {
      const plan = await planOf(userId);
      // No plan applies only on an installation without billing (and no plan assigned by its administrator).
      if (!plan) return { included: true, note: 'This installation is self-hosted: every feature is included, custom vocabulary too.' };
      const refusal = await customVocabularyRefusal(userId, plan);
      return refusal
        ? { included: false, note: refusal.message }
        : { included: true, note: `Custom vocabulary is included in your ${PLANS[plan.id].name} plan.` };
    },

    /** Checkout for a subscription to a paid plan: the account's first comes with the 14-day trial, no card asked for. */
    checkout: async (userId: string, plan: PaidPlanId): Promise<{ url: string }> => {
      const billing = requireStripe();
      const row = await billingAccountOf(db, userId);
      if (row?.subscription_status && LIVE_STATUSES.has(row.subscription_status))
        throw new AppError('CONFLICT', 'You already have a subscription: change its plan in Settings › Billing instead.');
      const customerId = await customerOf(userId, row);
      const url = await billing.gateway.checkout({
        userId,
        customerId,
        priceId: billing.prices[plan],
        trialDays: row?.trial_used === 1 ? undefined : TRIAL_DAYS,
        successUrl: `${billing.returnUrl}&checkout=done`,
        cancelUrl: billing.returnUrl,
      });
      return { url };
    },

    /** The Stripe Customer Portal (the card, invoices and their history). */
    portal: async (userId: string): Promise<{ url: string }> => {
      const billing = requireStripe();
      const row = await billingAccountOf(db, userId);
      if (!row?.stripe_customer_id) throw new AppError('CONFLICT', 'There are no invoices yet: they start with your first subscription.');
      return { url: await billing.gateway.portal(row.stripe_customer_id, billing.returnUrl) };
    },

    /** Upgrade or downgrade: an upgrade applies at once; a downgrade keeps the plan paid for until the period ends. */
    changePlan: async (userId: string, plan: PaidPlanId): Promise<void> => {
      const billing = requireStripe();
      const row = await liveSubscription(userId);
      const current = planIdOf(row.subscription_plan);
      if (current === plan) throw new AppError('CONFLICT', `Your subscription is already on the ${PLANS[plan].name} plan.`);
      const upgrade = current === undefined || rank(plan) > rank(current);
      const state = await billing.gateway.changePrice(row.subscription_id, billing.prices[plan], upgrade);
      // A downgrade keeps what was paid for until the period ends (spec §9's FAQ); an upgrade ends any kept plan.
      const kept =
        !upgrade && current && state.currentPeriodEnd
          ? { kept_plan: current, kept_until: state.currentPeriodEnd.toISOString() }
          : { kept_plan: null, kept_until: null };
      await applySubscription(userId, state, kept);
    },

    /** Cancel Subscription: it ends with the period paid for; its plan applies until then. */
    cancel: async (userId: string): Promise<void> => {
      const billing = requireStripe();
      const row = await liveSubscription(userId);
      if (row.cancel_at_period_end === 1) throw new AppError('CONFLICT', 'Your subscription is already cancelled: it ends with the period paid for.');
      await applySubscription(userId, await billing.gateway.setCancelAtPeriodEnd(row.subscription_id, true));
    },

    /**
     * A Stripe webhook: verified by its signature, processed once (its id is kept), and acted on by
     * reading the subscription as Stripe has it now, so events arriving out of order or again change
     * nothing.
     */
    webhook: async (payload: Buffer, signature: string | undefined): Promise<'processed' | 'duplicate' | 'ignored'> => {
      const billing = requireStripe();
      let event;
      try {
        if (!signature) throw new Error('no Stripe-Signature header');
        event = billing.gateway.verifyEvent(payload, signature);
      } catch (error) {
        deps.log.warn({ err: error }, 'a Stripe webhook was refused: its signature does not verify');
        throw new AppError('VALIDATION_FAILED', 'The webhook signature does not verify.');
      }
      if (await webhookEventSeen(db, event.id)) return 'duplicate';
      const invoiceId = invoiceIdOf(event);
      if (invoiceId) return invoiceEvent(billing, event, invoiceId);
      const subscriptionId = subscriptionIdOf(event);
      const state = subscriptionId ? await billing.gateway.subscription(subscriptionId) : undefined;
      const userId = state ? await userIdOfCustomer(db, state.customerId) : undefined;
      if (state && !userId) deps.log.warn({ eventId: event.id, customer: state.customerId }, 'a Stripe webhook names a customer no account has');
      return billing.events.transaction(async (trx, raise) => {
        if (state && userId) {
          // A payment failed and Stripe is retrying it: the person is told once each time the
          // subscription becomes past_due, whichever and however many events say so.
          const plan = planIdOf(planOfPrice(state.priceId));
          if (state.status === 'past_due' && plan && (await enterPastDue(trx, userId, deps.now())))
            raise({
              type: 'subscription.past_due',
              actorId: null,
              ownerId: userId,
              teamId: null,
              subject: { type: 'user', id: userId },
              payload: { plan, planName: PLANS[plan].name },
            });
          await applySubscription(userId, state, undefined, trx);
        }
        await recordWebhookEvent(trx, event.id, event.type, deps.now());
        return state && userId ? 'processed' : 'ignored';
      });
    },

    /**
     * Delete Account: a subscription still running ends now, so nothing is billed for an account that
     * is gone; if Stripe cannot be told, the deletion is refused (and can be tried again).
     */
    endSubscriptionFor: async (userId: string): Promise<void> => {
      if (!stripe) return;
      const row = await billingAccountOf(db, userId);
      if (!row?.subscription_id || !row.subscription_status || !LIVE_STATUSES.has(row.subscription_status)) return;
      await applySubscription(userId, await stripe.gateway.cancelNow(row.subscription_id));
    },

    /** Settings › Billing's Billing Information, saved to the account's Stripe customer (when it has one). */
    syncCustomer: async (userId: string): Promise<void> => {
      if (!stripe) return;
      const row = await billingAccountOf(db, userId);
      if (row?.stripe_customer_id) await stripe.gateway.updateCustomer(row.stripe_customer_id, await stripe.detailsOf(userId));
    },

    /** The `subscription.past_due` email: to the billing email of Settings › Billing (the account's unless changed). */
    sendPastDueEmail: async (userId: string, planName: string): Promise<void> => {
      if (!stripe) return;
      // The unpaid invoice that made it past due was told already (Stripe usually sends its event first): one email for one failure.
      if (await openPaymentFailureOf(db, userId)) return;
      const to = (await stripe.detailsOf(userId)).email.trim();
      if (!to) return deps.log.warn({ userId }, 'a failed payment was not emailed: the account has no email');
      await stripe.sendEmail(pastDueEmail({ to, planName, link: stripe.returnUrl }));
    },

    /** The `invoice.payment_failed` email: like the past_due one, to the billing email of Settings › Billing. */
    sendPaymentFailedEmail: async (userId: string, invoice: { amountDue: number; currency: string }): Promise<void> => {
      if (!stripe) return;
      const to = (await stripe.detailsOf(userId)).email.trim();
      if (!to) return deps.log.warn({ userId }, 'a failed payment was not emailed: the account has no email');
      await stripe.sendEmail(paymentFailedEmail({ to, amount: formatAmount(invoice.amountDue, invoice.currency), link: stripe.returnUrl }));
    },

    /** Assigns a plan as the administrator's `npm run plans` does (null takes it away). */
    assign: (userId: string, plan: PlanId | null) => assignPlan(db, userId, plan, deps.now()),
  };
}

/** The invoice events billing acts on: a payment that failed, and the ends of a failure (paid, voided, written off). */
const INVOICE_EVENTS = new Set(['invoice.payment_failed', 'invoice.paid', 'invoice.voided', 'invoice.marked_uncollectible']);

/** The invoice one of INVOICE_EVENTS is about. */
function invoiceIdOf(event: { type: string; data: { object: unknown } }): string | undefined {
  const object = event.data.object as { id?: unknown };
  return INVOICE_EVENTS.has(event.type) && typeof object.id === 'string' ? object.id : undefined;
}

/** The subscription a webhook event is about: a subscription event's own, or a completed Checkout's. */
function subscriptionIdOf(event: { type: string; data: { object: unknown } }): string | undefined {
  const object = event.data.object as { id?: unknown; subscription?: unknown };
  if (event.type.startsWith('customer.subscription.') && typeof object.id === 'string') return object.id;
  if (event.type === 'checkout.session.completed' && typeof object.subscription === 'string') return object.subscription;
  return undefined;
}
