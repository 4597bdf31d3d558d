import type { Kysely } from 'kysely';

/**
 * Marks a sign-in session opened by a password-recovery link or code (1) until it sets the new
 * password: such a session may set it without the current password, which its owner has forgotten
 * (GoTrue's SECURITY_UPDATE_PASSWORD_REQUIRE_CURRENT_PASSWORD skips recovery sessions likewise).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('auth_sessions')
    .addColumn('recovery', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('auth_sessions').dropColumn('recovery').execute();
}
