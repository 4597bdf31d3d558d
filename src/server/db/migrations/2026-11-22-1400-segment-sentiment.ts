import type { Kysely } from 'kysely';

/**
 * Sentiment of each transcript segment, -1..1, computed from its words when the meeting has
 * "Anonymous Emotional Analysis" on (null otherwise), for the Sentiment tab of /insights.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('transcript_segments').addColumn('sentiment', 'real').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('transcript_segments').dropColumn('sentiment').execute();
}
