import type { Kysely } from 'kysely';

/**
 * An emailed invitation's delivery, now that the email leaves after the invitation is stored (a
 * domain event): sending, sent, retrying or failed, with the words the inviter reads when it failed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('team_invitations').addColumn('email_status', 'text').execute();
  await db.schema.alterTable('team_invitations').addColumn('email_error', 'text').execute();
  await db.updateTable('team_invitations').set({ email_status: 'sent' }).where('email', 'is not', null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('team_invitations').dropColumn('email_error').execute();
  await db.schema.alterTable('team_invitations').dropColumn('email_status').execute();
}
