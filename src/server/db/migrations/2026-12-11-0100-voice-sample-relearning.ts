import type { Kysely } from 'kysely';

/**
 * A description of a voice made in an older way is learned again from its meeting's recording (a
 * job): why it could not be (the recording or the speaker gone), so the person is asked for a new
 * sample instead. Null while it is current or being learned again.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('voice_profile_samples').addColumn('relearn_error', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('voice_profile_samples').dropColumn('relearn_error').execute();
}
