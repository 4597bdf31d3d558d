import type { Kysely } from 'kysely';

/**
 * Settings › Privacy "Request Data Export": one row per requested archive of a person's data,
 * built by the `data-export` job into $DATA_DIR/exports/<id>.zip and offered for download until
 * `expires_at` (7 days after it was ready). Deleting the account deletes its rows.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('data_exports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('auth_users.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('progress', 'real')
    .addColumn('bytes', 'integer')
    .addColumn('failure_reason', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('ready_at', 'text')
    .addColumn('expires_at', 'text')
    .execute();
  await db.schema.createIndex('data_exports_user_id').on('data_exports').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('data_exports').execute();
}
