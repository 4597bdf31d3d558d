import type { Kysely } from 'kysely';

/**
 * Invoices whose payment failed (the billing feature, from Stripe's `invoice.payment_failed`): one
 * row per invoice, so its owner is told once however many of Stripe's retries fail, and Settings ›
 * Billing shows it until the invoice is paid (or voided).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('billing_payment_failures')
    .addColumn('invoice_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('auth_users.id').onDelete('cascade'))
    .addColumn('amount_due', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('attempt_count', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text')
    .addColumn('failed_at', 'text', (c) => c.notNull())
    .addColumn('resolved_at', 'text')
    .execute();
  await db.schema.createIndex('billing_payment_failures_user').on('billing_payment_failures').columns(['user_id', 'failed_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('billing_payment_failures').execute();
}
