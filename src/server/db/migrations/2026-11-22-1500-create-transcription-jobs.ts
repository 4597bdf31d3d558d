import type { Kysely } from 'kysely';

/**
 * Durable transcription jobs: one row per meeting, claimed by a worker under a lease so a job
 * never runs twice at once and a crashed worker's job is picked up again when its lease expires.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('transcription_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('meeting_id', 'text', (c) => c.notNull().unique().references('meetings.id').onDelete('cascade'))
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('run_after', 'text', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('stage', 'text')
    .addColumn('progress', 'real')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('transcription_jobs_claim_idx').on('transcription_jobs').columns(['status', 'run_after']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('transcription_jobs').execute();
}
