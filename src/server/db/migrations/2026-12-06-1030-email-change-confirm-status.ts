import type { Kysely } from 'kysely';

/**
 * GoTrue's secure email change: a change of address is confirmed from the current address and
 * from the new one. 0 while neither has confirmed, 1 once one has; the second confirmation makes
 * the change. Without it a stolen access token could move the account to an inbox its owner does
 * not read, and a recovery email to that inbox would then take the account.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('auth_users')
    .addColumn('email_change_confirm_status', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('auth_users').dropColumn('email_change_confirm_status').execute();
}
