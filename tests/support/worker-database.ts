import { z } from 'zod';
import { createDb, type DbHandle } from '#server/db/create-db.ts';
import { testConnectionOptions } from './test-database.ts';

/** The test database a worker script was pointed at (test-worker.ts `databaseEnv`), opened. */
export function openWorkerDatabase(env: NodeJS.ProcessEnv = process.env): DbHandle {
  const target = z.object({ WORKER_DB: z.enum(['sqlite', 'postgres']), WORKER_DB_TARGET: z.string(), WORKER_SEARCH_PATH: z.string().optional() }).parse(env);
  return target.WORKER_DB === 'sqlite'
    ? createDb({ dialect: 'sqlite', file: target.WORKER_DB_TARGET })
    : createDb({ dialect: 'postgres', url: target.WORKER_DB_TARGET }, target.WORKER_SEARCH_PATH ? { connectionOptions: testConnectionOptions(target.WORKER_SEARCH_PATH) } : {});
}
