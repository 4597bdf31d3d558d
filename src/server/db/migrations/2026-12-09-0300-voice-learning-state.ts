import type { Kysely } from 'kysely';

/**
 * A consent's voice is learned in a job (decoding a recording takes seconds): whether it is still
 * being learned, or why it could not be, so the person sees it instead of a request that hangs.
 * Consents given before this learned their voice at once: null.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('voice_consents').addColumn('learning', 'text').execute();
  await db.schema.alterTable('voice_consents').addColumn('learning_error', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('voice_consents').dropColumn('learning_error').execute();
  await db.schema.alterTable('voice_consents').dropColumn('learning').execute();
}
