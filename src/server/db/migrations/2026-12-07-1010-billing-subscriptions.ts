import type { Kysely } from 'kysely';

/**
 * Subscriptions through Stripe (the billing feature): each account's Stripe customer and its
 * subscription's state as the last webhook or API answer said it, a downgrade's plan kept until the
 * period paid for ends, whether the one free trial was used; and the ids of the webhook events
 * already processed, so a replayed event changes nothing.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const columns: [string, 'text' | 'integer'][] = [
    ['stripe_customer_id', 'text'],
    ['subscription_id', 'text'],
    ['subscription_status', 'text'],
    ['subscription_plan', 'text'],
    ['trial_ends_at', 'text'],
    ['current_period_end', 'text'],
    ['kept_plan', 'text'],
    ['kept_until', 'text'],
  ];
  for (const [name, type] of columns) await db.schema.alterTable('billing_accounts').addColumn(name, type).execute();
  await db.schema
    .alterTable('billing_accounts')
    .addColumn('cancel_at_period_end', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('billing_accounts')
    .addColumn('trial_used', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('billing_accounts_customer').unique().on('billing_accounts').column('stripe_customer_id').execute();
  await db.schema
    .createTable('billing_webhook_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('billing_webhook_events').execute();
  await db.schema.dropIndex('billing_accounts_customer').execute();
  for (const name of [
    'trial_used',
    'cancel_at_period_end',
    'kept_until',
    'kept_plan',
    'current_period_end',
    'trial_ends_at',
    'subscription_plan',
    'subscription_status',
    'subscription_id',
    'stripe_customer_id',
  ])
    await db.schema.alterTable('billing_accounts').dropColumn(name).execute();
}
