import type { Kysely } from 'kysely';

/**
 * The transcription hours each account used (the billing feature): one row per meeting whose audio
 * or transcript was accepted, written with that acceptance and kept when the meeting is deleted, so
 * deleting a meeting never gives its hours back. A transcription that failed for good is marked
 * given back. Meetings already in the database are counted as the meetings themselves were until
 * now (a failed one not at all), so this month's figures stay as they were.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('billing_usage')
    .addColumn('meeting_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('auth_users.id').onDelete('cascade'))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('seconds', 'integer', (c) => c.notNull())
    .addColumn('counted_at', 'text', (c) => c.notNull())
    .addColumn('given_back_at', 'text')
    .execute();
  await db.schema.createIndex('billing_usage_user_counted').on('billing_usage').columns(['user_id', 'counted_at']).execute();
  await db
    .insertInto('billing_usage')
    .columns(['meeting_id', 'user_id', 'source', 'seconds', 'counted_at'])
    .expression((eb) =>
      eb
        .selectFrom('meetings')
        .select(['id', 'owner_id', 'source', 'duration_seconds', 'created_at'])
        .where('is_sample', '=', 0)
        .where('status', 'in', ['processing', 'ready']),
    )
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('billing_usage').execute();
}
