import type { Kysely } from 'kysely';

/**
 * meetings.transcript_bytes: the size of the transcript file a meeting was imported from (its UTF-8
 * bytes; 0 for every other meeting), counted with the recorded audio in the account's storage quota.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('meetings')
    .addColumn('transcript_bytes', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('meetings').dropColumn('transcript_bytes').execute();
}
