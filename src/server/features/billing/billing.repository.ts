import type { Selectable, Updateable } from 'kysely';
import { PlanIdSchema, type PlanId } from '#shared/contracts/billing.ts';
import type { Db } from '#server/db/create-db.ts';
import type { BillingAccountsTable } from './billing.table.ts';

export type BillingAccountRow = Selectable<BillingAccountsTable>;

/** A stored plan id, or undefined for none (or one this version does not know). */
export const planIdOf = (value: string | null): PlanId | undefined => {
  const parsed = PlanIdSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
};

/** The account's billing row: its assigned plan, Stripe customer and subscription, if any. */
export async function billingAccountOf(db: Db, userId: string): Promise<BillingAccountRow | undefined> {
  return db.selectFrom('billing_accounts').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** Changes the account's row, making it first when there is none. */
async function upsert(db: Db, userId: string, changes: Omit<Updateable<BillingAccountsTable>, 'user_id' | 'updated_at'>, now: Date): Promise<void> {
  const updatedAt = now.toISOString();
  await db
    .insertInto('billing_accounts')
    .values({ user_id: userId, assigned_plan: null, ...changes, updated_at: updatedAt })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...changes, updated_at: updatedAt }))
    .execute();
}

/** Assigns a plan (null: takes the assignment away). */
export const assignPlan = (db: Db, userId: string, plan: PlanId | null, now: Date) => upsert(db, userId, { assigned_plan: plan }, now);

/** Every account with an assigned plan, the latest assignment first. */
export async function assignedPlans(db: Db, limit: number): Promise<{ userId: string; plan: PlanId; updatedAt: string }[]> {
  const rows = await db
    .selectFrom('billing_accounts')
    .select(['user_id', 'assigned_plan', 'updated_at'])
    .where('assigned_plan', 'is not', null)
    .orderBy('updated_at', 'desc')
    .limit(limit)
    .execute();
  return rows.flatMap((row) => {
    const plan = planIdOf(row.assigned_plan);
    return plan ? [{ userId: row.user_id, plan, updatedAt: row.updated_at }] : [];
  });
}

/**
 * Keeps the account's Stripe customer unless it has one already (the first kept wins), and answers
 * the one it has now: two Checkouts at once both go on with that one.
 */
export async function claimCustomer(db: Db, userId: string, customerId: string, now: Date): Promise<string> {
  const updatedAt = now.toISOString();
  await db
    .insertInto('billing_accounts')
    .values({ user_id: userId, assigned_plan: null, stripe_customer_id: customerId, updated_at: updatedAt })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({ stripe_customer_id: customerId, updated_at: updatedAt }).where('billing_accounts.stripe_customer_id', 'is', null),
    )
    .execute();
  const row = await db.selectFrom('billing_accounts').select('stripe_customer_id').where('user_id', '=', userId).executeTakeFirstOrThrow();
  return row.stripe_customer_id ?? customerId;
}

/** Whose Stripe customer this is. */
export async function userIdOfCustomer(db: Db, customerId: string): Promise<string | undefined> {
  return (await db.selectFrom('billing_accounts').select('user_id').where('stripe_customer_id', '=', customerId).executeTakeFirst())?.user_id;
}

/** The subscription's state as Stripe last answered it, and what follows from it (a plan kept after a downgrade, the trial used). */
export const saveSubscription = (
  db: Db,
  userId: string,
  state: Pick<
    Updateable<BillingAccountsTable>,
    | 'subscription_id'
    | 'subscription_status'
    | 'subscription_plan'
    | 'trial_ends_at'
    | 'current_period_end'
    | 'cancel_at_period_end'
    | 'kept_plan'
    | 'kept_until'
    | 'trial_used'
  >,
  now: Date,
) => upsert(db, userId, state, now);

/**
 * Marks the subscription past_due and answers whether it was not already: true for one caller only,
 * however many events about it arrive at once (the row is written under the database's lock).
 */
export async function enterPastDue(db: Db, userId: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('billing_accounts')
    .set({ subscription_status: 'past_due', updated_at: now.toISOString() })
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('subscription_status', 'is', null), eb('subscription_status', '!=', 'past_due')]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Whether this webhook event was processed before. */
export async function webhookEventSeen(db: Db, id: string): Promise<boolean> {
  return (await db.selectFrom('billing_webhook_events').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

export async function recordWebhookEvent(db: Db, id: string, type: string, now: Date): Promise<void> {
  await db
    .insertInto('billing_webhook_events')
    .values({ id, type, received_at: now.toISOString() })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/**
 * Counts a meeting's transcription hours as of `now`: once per meeting, so a job's retries change
 * nothing; a meeting whose hours were given back (its transcription failed) counts again, in the
 * month it is accepted again.
 */
export async function countUsage(db: Db, entry: { meetingId: string; userId: string; source: string; seconds: number }, now: Date): Promise<void> {
  const countedAt = now.toISOString();
  await db
    .insertInto('billing_usage')
    .values({ meeting_id: entry.meetingId, user_id: entry.userId, source: entry.source, seconds: Math.round(entry.seconds), counted_at: countedAt })
    .onConflict((oc) =>
      oc
        .column('meeting_id')
        .doUpdateSet({ seconds: Math.round(entry.seconds), counted_at: countedAt, given_back_at: null })
        .where('billing_usage.given_back_at', 'is not', null),
    )
    .execute();
}

/** A meeting's hours count for nothing (its transcription failed for good). */
export async function giveUsageBack(db: Db, meetingId: string, now: Date): Promise<void> {
  await db
    .updateTable('billing_usage')
    .set({ given_back_at: now.toISOString() })
    .where('meeting_id', '=', meetingId)
    .where('given_back_at', 'is', null)
    .execute();
}

/** The seconds of transcription the account used in [start, end). */
export async function usageSecondsBetween(db: Db, userId: string, start: Date, end: Date): Promise<number> {
  const row = await db
    .selectFrom('billing_usage')
    .where('user_id', '=', userId)
    .where('counted_at', '>=', start.toISOString())
    .where('counted_at', '<', end.toISOString())
    .where('given_back_at', 'is', null)
    .select((eb) => eb.fn.sum<number | string | null>('seconds').as('seconds'))
    .executeTakeFirst();
  return Number(row?.seconds ?? 0);
}

/** An invoice whose payment failed, as Stripe answers it now. */
export type FailedInvoice = { invoiceId: string; amountDue: number; currency: string; attemptCount: number; nextAttemptAt: Date | null };

/**
 * Keeps an invoice's failed payment (its latest attempt and when Stripe tries again) and answers
 * whether it is new: true for one caller only per invoice, however many failures and events arrive.
 */
export async function recordPaymentFailure(db: Db, userId: string, invoice: FailedInvoice, now: Date): Promise<boolean> {
  const latest = { attempt_count: invoice.attemptCount, next_attempt_at: invoice.nextAttemptAt?.toISOString() ?? null };
  const inserted = await db
    .insertInto('billing_payment_failures')
    .values({
      invoice_id: invoice.invoiceId,
      user_id: userId,
      amount_due: invoice.amountDue,
      currency: invoice.currency,
      ...latest,
      failed_at: now.toISOString(),
    })
    .onConflict((oc) => oc.column('invoice_id').doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return true;
  await db
    .updateTable('billing_payment_failures')
    .set(latest)
    .where('invoice_id', '=', invoice.invoiceId)
    .where('attempt_count', '<=', invoice.attemptCount)
    .execute();
  return false;
}

/** The invoice was paid, voided or written off: its failure is over. */
export async function resolvePaymentFailure(db: Db, invoiceId: string, now: Date): Promise<void> {
  await db
    .updateTable('billing_payment_failures')
    .set({ resolved_at: now.toISOString() })
    .where('invoice_id', '=', invoiceId)
    .where('resolved_at', 'is', null)
    .execute();
}

/** The account's latest invoice whose payment failed and is not paid yet. */
export async function openPaymentFailureOf(db: Db, userId: string) {
  return db
    .selectFrom('billing_payment_failures')
    .select(['invoice_id', 'amount_due', 'currency', 'attempt_count', 'next_attempt_at', 'failed_at'])
    .where('user_id', '=', userId)
    .where('resolved_at', 'is', null)
    .orderBy('failed_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}
