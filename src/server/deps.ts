/**
 * Composition root: builds every long-lived dependency once from the config. Tests call it with
 * their own config (and database) and get the same wiring as production.
 */
import type { Config } from './config.ts';
import { createDb, type DbHandle } from './db/create-db.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createLocalBlobStore, type BlobStore } from './lib/blob-store.ts';

export type Deps = {
  config: Config;
  database: DbHandle;
  blobs: BlobStore;
  /** Version string reported by health endpoints and the web app. */
  version: string;
  close: () => Promise<void>;
};

type CreateDepsOptions = { database?: DbHandle; version?: string };

export async function createDeps(config: Config, options: CreateDepsOptions = {}): Promise<Deps> {
  const database = options.database ?? createDb(config.db);
  await migrateToLatest(database.db);
  return {
    config,
    database,
    blobs: createLocalBlobStore(config.dataDir),
    version: options.version ?? '0.1.0',
    close: async () => {
      await database.close();
    },
  };
}
