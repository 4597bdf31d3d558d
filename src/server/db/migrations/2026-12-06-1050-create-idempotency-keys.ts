import type { Kysely } from 'kysely';

/**
 * meeting_idempotency_keys (the meetings feature's): the Idempotency-Key of each request that
 * created a meeting (POST /api/v1/meetings, POST /api/v1/meetings/imports) per person, with a
 * digest of the request and the answer given, so a retry with the same key answers the same again.
 * `status` and `response` are null while the first request is still being answered.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('meeting_idempotency_keys')
    .addColumn('user_id', 'text', (c) => c.notNull().references('auth_users.id').onDelete('cascade'))
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('response', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('meeting_idempotency_keys_pk', ['user_id', 'endpoint', 'key'])
    .execute();
  // Keys older than a day are removed whoever's they are: by age.
  await db.schema.createIndex('meeting_idempotency_keys_age_idx').on('meeting_idempotency_keys').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('meeting_idempotency_keys').execute();
}
