import type { Kysely } from 'kysely';

/**
 * The job-queue port's tables, for every kind of background work (transcription, notes, exports):
 * `jobs` is the embedded SQL queue (on PostgreSQL, pg-boss keeps its own schema instead), and
 * `job_progress` holds where a running job is, for both. They replace `transcription_jobs`: a
 * meeting whose job was queued there is still "processing" with its audio stored, and is queued
 * again at start like any meeting left without a job.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('queue', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('run_after', 'text', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('jobs_queue_key_unique', ['queue', 'key'])
    .execute();
  await db.schema.createIndex('jobs_claim_idx').on('jobs').columns(['queue', 'status', 'run_after']).execute();
  await db.schema
    .createTable('job_progress')
    .addColumn('queue', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('stage', 'text')
    .addColumn('progress', 'real')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('job_progress_pk', ['queue', 'key'])
    .execute();
  await db.schema.dropTable('transcription_jobs').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('job_progress').execute();
  await db.schema.dropTable('jobs').execute();
}
