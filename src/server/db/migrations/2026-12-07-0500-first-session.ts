import type { Kysely } from 'kysely';

/**
 * The sign-in session in which the person first used Parley, recorded by GET /api/v1/me: the
 * dashboard welcomes that visit ("Welcome to Parley") and welcomes the person back on every later
 * one, however the account was made (sign-up, invitation, confirmation link, an administrator).
 * Accounts that have already signed in are marked as having been here before ('').
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('auth_users').addColumn('first_session_id', 'text').execute();
  await db.updateTable('auth_users').set({ first_session_id: '' }).where('last_sign_in_at', 'is not', null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('auth_users').dropColumn('first_session_id').execute();
}
