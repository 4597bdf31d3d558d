import type { Kysely } from 'kysely';

/** The resumable upload that carries a meeting's audio, so one meeting has one upload at a time. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('meetings').addColumn('upload_id', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('meetings').dropColumn('upload_id').execute();
}
