import { z } from 'zod/mini';
import { defineEndpoint } from './endpoint.ts';
import { EXPORT_FORMATS, type ExportFormat } from './meetings.ts';

/**
 * Plans (spec §9's pricing page) as limits the server enforces. An installation without billing
 * configured limits nobody, unless its administrator assigns an account a plan
 * (`npm run plans -- set <email> <plan>`); with billing (Stripe), an account without a subscription
 * is on Free, and Pro or Business come with a subscription (the first with a 14-day trial, no card).
 */
export const PLAN_IDS = ['free', 'pro', 'business', 'enterprise'] as const;
export const PlanIdSchema = z.enum(PLAN_IDS);
export type PlanId = z.infer<typeof PlanIdSchema>;

/** The plans sold through Checkout; Enterprise is arranged with sales. */
export const PAID_PLAN_IDS = ['pro', 'business'] as const;
export const PaidPlanIdSchema = z.enum(PAID_PLAN_IDS);
export type PaidPlanId = z.infer<typeof PaidPlanIdSchema>;

/** Spec §9: the trial's length (no card asked for). */
export const TRIAL_DAYS = 14;

export type PlanLimits = {
  /** Transcription hours a calendar month (UTC); null: unlimited. */
  hoursPerMonth: number | null;
  /** Participants one meeting may list; null: unlimited. */
  participantsPerMeeting: number | null;
  exportFormats: readonly ExportFormat[];
  /** Meetings older than this many days are hidden (never deleted); null: all kept in sight. */
  historyDays: number | null;
  liveTranscription: boolean;
  apiAccess: boolean;
  teamManagement: boolean;
  /** Custom vocabulary (Settings › Recording and per team) given to transcription and the notes. */
  customVocabulary: boolean;
};

export const PLANS: Record<PlanId, { name: string; limits: PlanLimits }> = {
  free: {
    name: 'Free',
    limits: {
      hoursPerMonth: 5,
      participantsPerMeeting: 2,
      exportFormats: ['txt'],
      historyDays: 7,
      liveTranscription: false,
      apiAccess: false,
      teamManagement: false,
      customVocabulary: false,
    },
  },
  pro: {
    name: 'Pro',
    limits: {
      hoursPerMonth: 30,
      participantsPerMeeting: null,
      exportFormats: ['txt', 'docx', 'pdf'],
      historyDays: 30,
      liveTranscription: true,
      apiAccess: false,
      teamManagement: false,
      customVocabulary: true,
    },
  },
  business: {
    name: 'Business',
    limits: {
      hoursPerMonth: 100,
      participantsPerMeeting: null,
      exportFormats: EXPORT_FORMATS,
      historyDays: 365,
      liveTranscription: true,
      apiAccess: true,
      teamManagement: true,
      customVocabulary: true,
    },
  },
  enterprise: {
    name: 'Enterprise',
    limits: {
      hoursPerMonth: null,
      participantsPerMeeting: null,
      exportFormats: EXPORT_FORMATS,
      historyDays: null,
      liveTranscription: true,
      apiAccess: true,
      teamManagement: true,
      customVocabulary: true,
    },
  },
};

const PlanLimitsSchema = z.object({
  hoursPerMonth: z.nullable(z.number()),
  participantsPerMeeting: z.nullable(z.number().check(z.int())),
  exportFormats: z.array(z.enum(EXPORT_FORMATS)),
  historyDays: z.nullable(z.number().check(z.int())),
  liveTranscription: z.boolean(),
  apiAccess: z.boolean(),
  teamManagement: z.boolean(),
  customVocabulary: z.boolean(),
});

/** GET /api/v1/billing: the caller's plan (none: nothing limits them), its limits and this month's usage. */
export const BillingOverviewSchema = z.object({
  /** Whether this installation takes payments (a payment provider is configured). */
  billing: z.boolean(),
  /** Null: no plan applies (a self-hosted installation's default), nothing is limited. */
  plan: z.nullable(
    z.object({
      id: PlanIdSchema,
      name: z.string(),
      /** `administrator`: assigned with `npm run plans`; `subscription`: paid (or on trial); `default`: Free, for want of a subscription. */
      source: z.enum(['administrator', 'subscription', 'default']),
      limits: PlanLimitsSchema,
    }),
  ),
  /** The account's Stripe subscription, while it has one (trialing, active, past due) or since it ended. */
  subscription: z.nullable(
    z.object({
      plan: PlanIdSchema,
      planName: z.string(),
      /** Stripe's status: trialing, active, past_due, canceled… */
      status: z.string(),
      trialEndsAt: z.nullable(z.string()),
      currentPeriodEnd: z.nullable(z.string()),
      /** Cancel Subscription was chosen: it ends at `currentPeriodEnd`, its plan kept until then. */
      cancelAtPeriodEnd: z.boolean(),
      /** After a downgrade: the plan paid for, kept until the period ends. */
      keptPlan: z.nullable(z.object({ id: PlanIdSchema, name: z.string(), until: z.string() })),
    }),
  ),
  /** Whether the account may still start its one free trial. */
  trialAvailable: z.boolean(),
  /** The latest invoice whose payment failed and is not paid yet (fixed in the Customer Portal); null: none. */
  paymentFailure: z.nullable(
    z.object({
      /** In the currency's smallest unit (cents). */
      amountDue: z.number().check(z.int()),
      currency: z.string(),
      attempts: z.number().check(z.int()),
      failedAt: z.string(),
      /** When Stripe tries the payment again; null: it will not. */
      nextAttemptAt: z.nullable(z.string()),
    }),
  ),
  usage: z.object({
    /** Recorded, uploaded and imported hours of meetings added this month (samples not counted), one decimal. */
    hoursThisMonth: z.number(),
    meetingsThisMonth: z.number().check(z.int()),
    /** The calendar month counted (UTC): from its first day to the next month's. */
    periodStart: z.string(),
    periodEnd: z.string(),
    /** The caller's meetings older than the plan's history, hidden until an upgrade (never deleted). */
    hiddenMeetings: z.number().check(z.int()),
  }),
});
export type BillingOverview = z.infer<typeof BillingOverviewSchema>;

export const billingEndpoints = {
  overview: defineEndpoint({
    method: 'GET',
    path: '/api/v1/billing',
    response: BillingOverviewSchema,
    tag: 'billing',
    summary: "The caller's plan, its limits and this month's usage",
  }),
  // Money is a signed-in person's own business: no API token starts, changes or cancels a subscription.
  checkout: defineEndpoint({
    method: 'POST',
    path: '/api/v1/billing/checkout',
    body: z.object({ plan: PaidPlanIdSchema }),
    response: z.object({ url: z.string() }),
    apiTokens: false,
    tag: 'billing',
    summary: "A Stripe Checkout page for a subscription to the plan (the account's first with a 14-day trial, no card)",
  }),
  portal: defineEndpoint({
    method: 'POST',
    path: '/api/v1/billing/portal',
    response: z.object({ url: z.string() }),
    apiTokens: false,
    tag: 'billing',
    summary: 'The Stripe Customer Portal: the card, invoices and their history',
  }),
  changePlan: defineEndpoint({
    method: 'POST',
    path: '/api/v1/billing/plan',
    body: z.object({ plan: PaidPlanIdSchema }),
    response: BillingOverviewSchema,
    apiTokens: false,
    tag: 'billing',
    summary: 'Moves the subscription to another plan: an upgrade at once, a downgrade keeping the plan paid for until the period ends',
  }),
  cancel: defineEndpoint({
    method: 'POST',
    path: '/api/v1/billing/cancel',
    response: BillingOverviewSchema,
    apiTokens: false,
    tag: 'billing',
    summary: 'Cancel Subscription: it ends with the period paid for, its plan kept until then',
  }),
};

/** An amount in a currency's smallest unit as people read it ("$12.99"), as Stripe states amounts. */
export function formatAmount(amount: number, currency: string): string {
  const code = currency.toUpperCase();
  try {
    const format = new Intl.NumberFormat('en-US', { style: 'currency', currency: code });
    return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
  } catch {
    // A code Intl does not know: the amount in hundredths, as most currencies count.
    return `${(amount / 100).toFixed(2)} ${code}`;
  }
}
