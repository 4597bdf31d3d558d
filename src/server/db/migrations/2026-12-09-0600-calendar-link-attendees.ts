import type { Kysely } from 'kysely';

/**
 * Who was invited to the event a meeting was recorded from (features/calendar): the attendees'
 * addresses, kept on the link like its title, so a teammate reading the shared meeting sees its
 * owner's event only if they were invited to it, also after the event has left the refreshed window.
 * Links made before have none: the event row, while there, says who was invited.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('calendar_meeting_links').addColumn('attendee_emails', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('calendar_meeting_links').dropColumn('attendee_emails').execute();
}
