import { Migrator, type MigrationResultSet } from 'kysely';
import type { Db } from './create-db.ts';
import { currentSchema, isPostgres } from './dialect.ts';
import { MIGRATIONS } from './migrations.ts';

/**
 * On PostgreSQL the migrator's bookkeeping tables go into the connection's current schema. Kysely
 * otherwise looks them up across every schema, and a second Parley (or test) database in another
 * schema of the same server would make it believe they already exist.
 */
async function migrationSchema(db: Db): Promise<string | undefined> {
  return isPostgres(db) ? currentSchema(db) : undefined;
}

/** Applies every pending migration; throws with the failing migration's name and cause. */
export async function migrateToLatest(db: Db): Promise<MigrationResultSet> {
  const schema = await migrationSchema(db);
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => MIGRATIONS },
    // Features land in parallel: a migration may sort before one an existing database already ran.
    allowUnorderedMigrations: true,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const result = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed`, { cause: result.error });
  }
  return result;
}
