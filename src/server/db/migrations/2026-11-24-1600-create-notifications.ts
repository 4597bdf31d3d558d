import type { Kysely } from 'kysely';

/**
 * Notifications (issue 11 point 5): the in-app notifications of the bell, the days a Team Activity
 * digest was sent to a person (once a day at most), and the key each person's unsubscribe links are
 * signed with (revocable). Deleting the account deletes its rows.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('auth_users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('link', 'text', (c) => c.notNull())
    .addColumn('about_user_id', 'text', (c) => c.references('auth_users.id').onDelete('cascade'))
    .addColumn('dedupe_key', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('read_at', 'text')
    .execute();
  await db.schema.createIndex('notifications_user_created').on('notifications').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('notifications_about_user').on('notifications').column('about_user_id').execute();
  await db.schema.createIndex('notifications_user_dedupe').on('notifications').columns(['user_id', 'dedupe_key']).unique().execute();

  await db.schema
    .createTable('notification_digests')
    .addColumn('user_id', 'text', (c) => c.notNull().references('auth_users.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_digests_pk', ['user_id', 'day'])
    .execute();

  await db.schema
    .createTable('notification_unsubscribe_keys')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('auth_users.id').onDelete('cascade'))
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notification_unsubscribe_keys').execute();
  await db.schema.dropTable('notification_digests').execute();
  await db.schema.dropTable('notifications').execute();
}
