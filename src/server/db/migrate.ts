import { Migrator, type MigrationResultSet } from 'kysely';
import type { Db } from './create-db.ts';
import { MIGRATIONS } from './migrations.ts';

/** Applies every pending migration; throws with the failing migration's name and cause. */
export async function migrateToLatest(db: Db): Promise<MigrationResultSet> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => MIGRATIONS },
  });
  const result = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed`, { cause: result.error });
  }
  return result;
}
