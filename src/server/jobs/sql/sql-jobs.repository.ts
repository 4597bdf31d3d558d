import crypto from 'node:crypto';
import type { ExpressionBuilder, Selectable } from 'kysely';
import type { Db } from '#server/db/create-db.ts';
import type { Database } from '#server/db/database.ts';
import type { JobsTable } from '../jobs.table.ts';

/**
 * The embedded queue's operations. Claiming is one conditional UPDATE, so of two workers (two
 * processes, or two servers on one database) exactly one gets a job; a worker that dies simply stops
 * renewing its lease and the job becomes claimable again when the lease runs out.
 */
export type JobRow = Selectable<JobsTable>;

const iso = (ms: number) => new Date(ms).toISOString();

/** Queued and due, or running under a lease that has run out (its worker died). */
const runnableAt = (at: string) => (eb: ExpressionBuilder<Database, 'jobs'>) =>
  eb.or([eb.and([eb('status', '=', 'queued'), eb('run_after', '<=', at)]), eb.and([eb('status', '=', 'running'), eb('lease_until', '<', at)])]);

/**
 * Queues a job: a new row, or the key's finished row reset; a queued or running job is left alone.
 * Resolves whether a job was queued (false: the key's job was already queued or running).
 */
export async function insertJob(db: Db, input: { queue: string; key: string; payload: unknown; maxAttempts: number }, now = Date.now()): Promise<boolean> {
  const reset = {
    payload: JSON.stringify(input.payload),
    status: 'queued' as const,
    attempts: 0,
    max_attempts: input.maxAttempts,
    run_after: iso(now),
    lease_owner: null,
    lease_until: null,
    last_error: null,
    updated_at: iso(now),
  };
  const result = await db
    .insertInto('jobs')
    .values({ id: crypto.randomUUID(), queue: input.queue, key: input.key, created_at: iso(now), ...reset })
    .onConflict((oc) =>
      oc
        .columns(['queue', 'key'])
        .doUpdateSet(reset)
        .where((eb) => eb('jobs.status', 'in', ['succeeded', 'failed'])),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Claims the next runnable job of `queue` for `worker`, or nothing. */
export async function claimJob(db: Db, queue: string, worker: string, leaseMs: number, now = Date.now()): Promise<JobRow | undefined> {
  const at = iso(now);
  const candidates = await db.selectFrom('jobs').select('id').where('queue', '=', queue).where(runnableAt(at)).orderBy('run_after').limit(5).execute();
  for (const { id } of candidates) {
    const result = await db
      .updateTable('jobs')
      .set((eb) => ({ status: 'running', lease_owner: worker, lease_until: iso(now + leaseMs), attempts: eb('attempts', '+', 1), updated_at: at }))
      .where('id', '=', id)
      .where(runnableAt(at)) // re-checked in the UPDATE itself: of two claimers only one matches
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  }
  return undefined;
}

/** Extends the lease while work goes on; false when the job is no longer this worker's. */
export async function renewLease(db: Db, jobId: string, worker: string, leaseMs: number, now = Date.now()): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ lease_until: iso(now + leaseMs), updated_at: iso(now) })
    .where('id', '=', jobId)
    .where('lease_owner', '=', worker)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export type SettledRun = { status: 'succeeded' } | { status: 'failed'; error: string } | { status: 'queued'; error: string; runAfter: number };

/** Records how a run ended, only if this worker still holds the job (a stale worker changes nothing). */
export async function settleJob(db: Db, jobId: string, worker: string, outcome: SettledRun): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({
      status: outcome.status,
      lease_owner: null,
      lease_until: null,
      last_error: outcome.status === 'succeeded' ? null : outcome.error,
      ...(outcome.status === 'queued' ? { run_after: iso(outcome.runAfter) } : {}),
      updated_at: iso(Date.now()),
    })
    .where('id', '=', jobId)
    .where('lease_owner', '=', worker)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives a job back without counting the run (graceful shutdown): another worker takes it at once. */
export async function releaseJob(db: Db, jobId: string, worker: string): Promise<void> {
  await db
    .updateTable('jobs')
    .set((eb) => ({
      status: 'queued',
      lease_owner: null,
      lease_until: null,
      attempts: eb('attempts', '-', 1),
      run_after: iso(Date.now()),
      updated_at: iso(Date.now()),
    }))
    .where('id', '=', jobId)
    .where('lease_owner', '=', worker)
    .where('status', '=', 'running')
    .execute();
}

/** Whether any job of these queues could run now or is running somewhere (tests and graceful waits). */
export async function hasPendingJob(db: Db, queues: string[], now = Date.now()): Promise<boolean> {
  if (queues.length === 0) return false;
  const at = iso(now);
  const row = await db
    .selectFrom('jobs')
    .select('id')
    .where('queue', 'in', queues)
    .where((eb) => eb.or([eb.and([eb('status', '=', 'queued'), eb('run_after', '<=', at)]), eb('status', '=', 'running')]))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function jobsOfKeys(db: Db, queue: string, keys: string[]): Promise<JobRow[]> {
  if (keys.length === 0) return [];
  return db.selectFrom('jobs').selectAll().where('queue', '=', queue).where('key', 'in', keys).execute();
}

export async function countJobs(db: Db, queue: string): Promise<{ queued: number; running: number }> {
  const rows = await db
    .selectFrom('jobs')
    .select(['status', db.fn.countAll<string | number>().as('count')])
    .where('queue', '=', queue)
    .where('status', 'in', ['queued', 'running'])
    .groupBy('status')
    .execute();
  const count = (status: string) => Number(rows.find((r) => r.status === status)?.count ?? 0);
  return { queued: count('queued'), running: count('running') };
}
