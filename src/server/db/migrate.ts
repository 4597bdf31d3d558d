import { Migrator, sql, type Migration, type MigrationResultSet } from 'kysely';
import type { Db } from './create-db.ts';
import { currentSchema, isPostgres } from './dialect.ts';
import { migrationsWith, type Sealer } from './migrations.ts';

/**
 * On PostgreSQL the migrator's bookkeeping tables go into the connection's current schema. Kysely
 * otherwise looks them up across every schema, and a second Parley (or test) database in another
 * schema of the same server would make it believe they already exist.
 */
async function migrationSchema(db: Db): Promise<string | undefined> {
  return isPostgres(db) ? currentSchema(db) : undefined;
}

/**
 * Applies every pending migration; throws with the failing migration's name and cause. On
 * PostgreSQL a migration that rewrites whole tables names them in `vacuumAfter`: they are vacuumed
 * once it is committed (VACUUM cannot run in the migration's transaction), so the first requests
 * after an upgrade do not read a table half dead rows, without the visibility map index-only scans
 * need, until autovacuum comes round. The sealer
 * (the installation's secret key) lets the migration that encrypts stored secrets do its work.
 */
export async function migrateToLatest(db: Db, options: { sealer?: Sealer } = {}): Promise<MigrationResultSet> {
  const schema = await migrationSchema(db);
  const migrations = migrationsWith(options.sealer);
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    // Features land in parallel: a migration may sort before one an existing database already ran.
    allowUnorderedMigrations: true,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const result = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed`, { cause: result.error });
  }
  if (isPostgres(db)) {
    for (const { migrationName, status } of result.results ?? []) {
      const tables = status === 'Success' ? (migrations[migrationName] as Migration & { vacuumAfter?: readonly string[] }).vacuumAfter : undefined;
      for (const table of tables ?? []) await sql`vacuum analyze ${sql.table(table)}`.execute(db);
    }
  }
  return result;
}
