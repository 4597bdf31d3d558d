import type { ColumnType } from 'kysely';

/** Tables of the billing feature (migrations 2026-12-07-1000 and 1010, 2026-12-08-0400, 2026-12-09-0500). Timestamps are ISO-8601 UTC text. */
export type BillingAccountsTable = {
  user_id: string;
  /** The plan this installation's administrator assigned (`npm run plans -- set`); null: none. */
  assigned_plan: string | null;
  updated_at: string;
  /** The account's Stripe customer, made at its first Checkout. */
  stripe_customer_id: ColumnType<string | null, string | null | undefined, string | null>;
  subscription_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Stripe's status: trialing, active, past_due, canceled, incomplete, unpaid… */
  subscription_status: ColumnType<string | null, string | null | undefined, string | null>;
  /** The plan of the subscription's price. */
  subscription_plan: ColumnType<string | null, string | null | undefined, string | null>;
  trial_ends_at: ColumnType<string | null, string | null | undefined, string | null>;
  current_period_end: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1: the subscription ends when the period paid for does (Cancel Subscription). */
  cancel_at_period_end: ColumnType<number, number | undefined, number>;
  /** After a downgrade, the plan paid for until `kept_until` (the end of that period). */
  kept_plan: ColumnType<string | null, string | null | undefined, string | null>;
  kept_until: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1 once the account had its one free trial. */
  trial_used: ColumnType<number, number | undefined, number>;
};

/** Stripe webhook events already processed (a replay changes nothing). */
export type BillingWebhookEventsTable = {
  id: string;
  type: string;
  received_at: string;
};

/**
 * The transcription hours used: one row per meeting whose audio was accepted for transcription (or
 * whose transcript was imported), written with that acceptance. No foreign key to the meeting:
 * deleting it must not give its hours back.
 */
export type BillingUsageTable = {
  meeting_id: string;
  user_id: string;
  /** The meeting's source: mic, upload or import. */
  source: string;
  seconds: number;
  /** When it was accepted (again, after a retry): the month it counts in. */
  counted_at: string;
  /** Set when its transcription failed for good: it counts for nothing unless retried. */
  given_back_at: ColumnType<string | null, string | null | undefined, string | null>;
};

/** Invoices whose payment failed: one row each, told once, shown in Settings › Billing until paid or voided. */
export type BillingPaymentFailuresTable = {
  invoice_id: string;
  user_id: string;
  /** In the currency's smallest unit (cents), as Stripe gives it. */
  amount_due: number;
  currency: string;
  /** Stripe's attempts at the payment so far. */
  attempt_count: number;
  /** When Stripe tries again; null: it will not (the subscription's retries are over). */
  next_attempt_at: string | null;
  /** When its first failure was recorded. */
  failed_at: string;
  /** When the invoice was paid, voided or marked uncollectible: shown no longer. */
  resolved_at: ColumnType<string | null, string | null | undefined, string | null>;
};

export type BillingTables = {
  billing_payment_failures: BillingPaymentFailuresTable;
  billing_accounts: BillingAccountsTable;
  billing_webhook_events: BillingWebhookEventsTable;
  billing_usage: BillingUsageTable;
};
