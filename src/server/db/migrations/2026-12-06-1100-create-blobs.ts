import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';

/**
 * Every stored blob with its owner, kind and size, so an owner's storage used (and their quota) is
 * one query and so is deleting everything they own. Recordings and finished exports stored before
 * this start as rows from the meetings and exports that hold them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('blobs')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('bytes', isPostgres(db) ? 'bigint' : 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('blobs_owner').on('blobs').columns(['owner_id', 'kind']).execute();
  await db
    .insertInto('blobs')
    .columns(['key', 'owner_id', 'kind', 'bytes', 'created_at'])
    .expression(
      db
        .selectFrom('meetings')
        .select((eb) => ['audio_key', 'owner_id', sql.lit('recording').as('kind'), eb.fn.coalesce('audio_bytes', sql.lit(0)).as('bytes'), 'created_at'])
        .where('audio_key', 'is not', null),
    )
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  // Finished data exports too (the blob store keeps them as exports/<id>.zip, where they already are).
  await db
    .insertInto('blobs')
    .columns(['key', 'owner_id', 'kind', 'bytes', 'created_at'])
    .expression(
      db
        .selectFrom('data_exports')
        .select([sql<string>`'exports/' || id || '.zip'`.as('key'), 'user_id', sql.lit('export').as('kind'), 'bytes', 'created_at'])
        .where('status', '=', 'ready')
        .where('bytes', 'is not', null),
    )
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('blobs').execute();
}
