import type { Kysely } from 'kysely';

/**
 * A new account's sample meetings (features/samples): one row per account whose setting up has
 * begun or was called off by Delete All Data. Each sample's transaction writes the row and reads it
 * back, and the deletion marks it before it deletes, so on PostgreSQL the two wait for each other
 * on the row's lock and no sample is written after the data went. The row goes with its account.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sample_setups')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('auth_users.id').onDelete('cascade'))
    .addColumn('called_off', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sample_setups').execute();
}
