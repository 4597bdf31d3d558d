import type { Kysely } from 'kysely';

/**
 * Plans per account (the billing feature): the plan an administrator assigned with `npm run plans`.
 * Deleting the account deletes its row.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('billing_accounts')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('auth_users.id').onDelete('cascade'))
    .addColumn('assigned_plan', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('billing_accounts').execute();
}
