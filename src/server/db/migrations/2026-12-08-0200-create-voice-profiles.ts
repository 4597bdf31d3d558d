import type { Kysely } from 'kysely';

/**
 * Voice profiles (issue 32): a person's profile, the descriptions of their voice it holds (numbers,
 * never audio), the consents asked and given, and the suggestions ("Is this Tomasz?") a meeting's
 * owner answers. Deleting the account deletes all of it; deleting a meeting deletes its suggestions.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('voice_profiles')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('auth_users.id').onDelete('cascade'))
    .addColumn('team_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('voice_profiles_team').on('voice_profiles').column('team_id').execute();
  await db.schema
    .createTable('voice_profile_samples')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('auth_users.id').onDelete('cascade'))
    .addColumn('meeting_id', 'text', (c) => c.notNull())
    .addColumn('meeting_title', 'text', (c) => c.notNull())
    .addColumn('speaker_id', 'text', (c) => c.notNull())
    .addColumn('via', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('embedding', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('voice_profile_samples_user').on('voice_profile_samples').column('user_id').execute();
  await db.schema
    .createTable('voice_consents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('person_id', 'text', (c) => c.notNull().references('auth_users.id').onDelete('cascade'))
    .addColumn('requested_by', 'text', (c) => c.notNull().references('auth_users.id').onDelete('cascade'))
    .addColumn('meeting_id', 'text', (c) => c.notNull())
    .addColumn('meeting_title', 'text', (c) => c.notNull())
    .addColumn('speaker_id', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('decided_at', 'text')
    .execute();
  await db.schema.createIndex('voice_consents_person').on('voice_consents').columns(['person_id', 'status']).execute();
  await db.schema
    .createTable('voice_suggestions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('meeting_id', 'text', (c) => c.notNull().references('meetings.id').onDelete('cascade'))
    .addColumn('speaker_id', 'text', (c) => c.notNull())
    .addColumn('person_id', 'text', (c) => c.notNull().references('auth_users.id').onDelete('cascade'))
    .addColumn('similarity', 'real', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('decided_at', 'text')
    .execute();
  await db.schema
    .createIndex('voice_suggestions_meeting_speaker_person')
    .on('voice_suggestions')
    .columns(['meeting_id', 'speaker_id', 'person_id'])
    .unique()
    .execute();
  await db.schema.createIndex('voice_suggestions_person').on('voice_suggestions').column('person_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('voice_suggestions').execute();
  await db.schema.dropTable('voice_consents').execute();
  await db.schema.dropTable('voice_profile_samples').execute();
  await db.schema.dropTable('voice_profiles').execute();
}
