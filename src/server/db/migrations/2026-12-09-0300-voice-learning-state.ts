import type { Kysely } from 'kysely';

/**
 * The voice of an accepted consent or suggestion is learned in a job (decoding a recording takes
 * seconds): whether it is still being learned, or why it could not be, so the person sees it
 * instead of a request that hangs. Those answered before this learned their voice at once: null.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['voice_consents', 'voice_suggestions']) {
    await db.schema.alterTable(table).addColumn('learning', 'text').execute();
    await db.schema.alterTable(table).addColumn('learning_error', 'text').execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['voice_suggestions', 'voice_consents']) {
    await db.schema.alterTable(table).dropColumn('learning_error').execute();
    await db.schema.alterTable(table).dropColumn('learning').execute();
  }
}
