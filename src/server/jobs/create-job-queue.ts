import type { FastifyBaseLogger as Logger } from 'fastify';
import type { DbHandle } from '#server/db/create-db.ts';
import { currentSchema } from '#server/db/dialect.ts';
import type { JobQueue } from './job-queue.ts';
import { createPgBossJobQueue } from './pg-boss/pg-boss-job-queue.ts';
import { createSqlJobQueue } from './sql/sql-job-queue.ts';

export type JobQueueTimings = {
  /** How long a silent worker keeps its job (tests shorten it; pg-boss's floor is 10 s). */
  leaseMs?: number;
  /** pg-boss: how often its monitor looks for dead workers' jobs. */
  monitorMs?: number;
  pollMs?: number;
  /**
   * pg-boss: its supervisor's check that the job tables are being vacuumed (on unless false). It reads
   * pg_stat_user_tables, whose cost grows with every table in the database: tests, which make a
   * schema for each test app, turn it off.
   */
  vacuumCheck?: boolean;
};

/**
 * The queue for this database: pg-boss on PostgreSQL (in its own schema beside ours: `pgboss`, or
 * `<schema>_pgboss` when Parley lives in a schema other than `public`), the embedded SQL queue on
 * SQLite.
 */
export async function createJobQueue(database: DbHandle, log: Logger, timings: JobQueueTimings = {}): Promise<JobQueue> {
  if (database.dialect === 'sqlite') return createSqlJobQueue({ db: database.db, log, ...timings });
  if (!database.url) throw new Error('A PostgreSQL database handle needs its connection string for the job queue');
  const current = await currentSchema(database.db);
  return createPgBossJobQueue({
    db: database.db,
    connectionString: database.url,
    schema: current === 'public' ? 'pgboss' : `${current}_pgboss`,
    log,
    ...timings,
  });
}
