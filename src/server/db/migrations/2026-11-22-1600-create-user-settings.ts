import type { Kysely } from 'kysely';

/**
 * A person's settings (Notifications, Recording, Privacy, Billing) as one JSON document per
 * account, read over the defaults field by field. `revision` grows with every write, so two saves
 * at once (two tabs, two devices) merge instead of overwriting each other. Deleting the account
 * deletes its settings.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('user_settings')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('auth_users.id').onDelete('cascade'))
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_settings').execute();
}
