import type { ColumnType } from 'kysely';

/** Tables of the billing feature (migrations 2026-12-07-1000 and 1010). Timestamps are ISO-8601 UTC text. */
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

export type BillingTables = {
  billing_accounts: BillingAccountsTable;
  billing_webhook_events: BillingWebhookEventsTable;
};
