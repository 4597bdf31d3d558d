import type { Kysely } from 'kysely';

/**
 * Job progress becomes typed: a stage name from its kind's list plus the part under way (of how many)
 * and when a retry is due, in columns of their own instead of words in the stage ("part 2 of 5",
 * "waiting to retry (in 30 s)"). Rows already stored keep their text; the server reads a stage it does
 * not know as unknown.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('job_progress').addColumn('part', 'integer').execute();
  await db.schema.alterTable('job_progress').addColumn('parts', 'integer').execute();
  await db.schema.alterTable('job_progress').addColumn('retry_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('job_progress').dropColumn('retry_at').execute();
  await db.schema.alterTable('job_progress').dropColumn('parts').execute();
  await db.schema.alterTable('job_progress').dropColumn('part').execute();
}
