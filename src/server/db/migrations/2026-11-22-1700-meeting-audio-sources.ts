import type { Kysely } from 'kysely';

/**
 * The capture sources of a recording, one per audio channel (JSON, e.g. ["Microphone","Shared tab"]);
 * null for a single mixed track. The transcription job makes each source its own speaker.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('meetings').addColumn('audio_sources', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('meetings').dropColumn('audio_sources').execute();
}
