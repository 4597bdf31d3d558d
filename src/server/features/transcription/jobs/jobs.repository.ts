import crypto from 'node:crypto';
import type { ExpressionBuilder, Selectable } from 'kysely';
import type { Db } from '#server/db/create-db.ts';
import type { Database } from '#server/db/database.ts';
import type { TranscriptionJobsTable } from './jobs.table.ts';

/**
 * The job table's operations. Claiming is one conditional UPDATE, so of two workers (two processes,
 * or two servers on one PostgreSQL) exactly one gets a job; a worker that dies simply stops renewing
 * its lease and the job becomes claimable again when the lease runs out.
 */
export type Job = Selectable<TranscriptionJobsTable>;

const iso = (ms: number) => new Date(ms).toISOString();
const jobsWhere = (db: Db) => db.selectFrom('transcription_jobs');

/** Queued and due, or running under a lease that has run out (its worker died). */
const runnableAt =
  (at: string) =>
  (eb: ExpressionBuilder<Database, 'transcription_jobs'>) =>
    eb.or([eb.and([eb('status', '=', 'queued'), eb('run_after', '<=', at)]), eb.and([eb('status', '=', 'running'), eb('lease_until', '<', at)])]);

/** Queues a meeting's job (a new row, or the meeting's existing row reset for a retry). */
export async function enqueueJob(db: Db, input: { meetingId: string; ownerId: string; maxAttempts: number }, now = Date.now()): Promise<void> {
  const reset = {
    status: 'queued' as const,
    attempts: 0,
    max_attempts: input.maxAttempts,
    run_after: iso(now),
    lease_owner: null,
    lease_until: null,
    stage: 'queued',
    progress: null,
    last_error: null,
    updated_at: iso(now),
  };
  await db
    .insertInto('transcription_jobs')
    .values({ id: crypto.randomUUID(), meeting_id: input.meetingId, owner_id: input.ownerId, created_at: iso(now), ...reset })
    .onConflict((oc) => oc.column('meeting_id').doUpdateSet(reset))
    .execute();
}

/** Claims the next runnable job for `worker`, or nothing. */
export async function claimNextJob(db: Db, worker: string, leaseMs: number, now = Date.now()): Promise<Job | undefined> {
  const at = iso(now);
  const candidates = await jobsWhere(db).select('id').where(runnableAt(at)).orderBy('run_after').limit(5).execute();
  for (const { id } of candidates) {
    const result = await db
      .updateTable('transcription_jobs')
      .set((eb) => ({ status: 'running', lease_owner: worker, lease_until: iso(now + leaseMs), attempts: eb('attempts', '+', 1), updated_at: at }))
      .where('id', '=', id)
      .where(runnableAt(at)) // re-checked in the UPDATE itself: of two claimers only one matches
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) return db.selectFrom('transcription_jobs').selectAll().where('id', '=', id).executeTakeFirst();
  }
  return undefined;
}


/** Extends the lease while work goes on; false when the job is no longer this worker's. */
export async function renewLease(db: Db, jobId: string, worker: string, leaseMs: number, now = Date.now()): Promise<boolean> {
  const result = await db
    .updateTable('transcription_jobs')
    .set({ lease_until: iso(now + leaseMs), updated_at: iso(now) })
    .where('id', '=', jobId)
    .where('lease_owner', '=', worker)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function recordProgress(db: Db, jobId: string, worker: string, stage: string, progress: number | null): Promise<void> {
  await db
    .updateTable('transcription_jobs')
    .set({ stage, progress, updated_at: iso(Date.now()) })
    .where('id', '=', jobId)
    .where('lease_owner', '=', worker)
    .execute();
}

export type JobOutcome = { status: 'succeeded' } | { status: 'failed'; error: string } | { status: 'queued'; error: string; runAfter: number };

/** Records how a run ended, only if this worker still holds the job (a stale worker changes nothing). */
export async function finishJob(db: Db, jobId: string, worker: string, outcome: JobOutcome): Promise<boolean> {
  const result = await db
    .updateTable('transcription_jobs')
    .set({
      status: outcome.status,
      lease_owner: null,
      lease_until: null,
      stage: outcome.status === 'queued' ? 'waiting to retry' : outcome.status === 'succeeded' ? 'done' : 'failed',
      progress: outcome.status === 'succeeded' ? 1 : null,
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
    .updateTable('transcription_jobs')
    .set((eb) => ({ status: 'queued', lease_owner: null, lease_until: null, attempts: eb('attempts', '-', 1), run_after: iso(Date.now()), updated_at: iso(Date.now()) }))
    .where('id', '=', jobId)
    .where('lease_owner', '=', worker)
    .where('status', '=', 'running')
    .execute();
}

/** Whether any job could run now (tests and graceful waits). */
export async function hasRunnableJob(db: Db, now = Date.now()): Promise<boolean> {
  const at = iso(now);
  const row = await jobsWhere(db)
    .select('id')
    .where((eb) => eb.or([eb.and([eb('status', '=', 'queued'), eb('run_after', '<=', at)]), eb('status', '=', 'running')]))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function jobOfMeeting(db: Db, meetingId: string): Promise<Job | undefined> {
  return jobsWhere(db).selectAll().where('meeting_id', '=', meetingId).executeTakeFirst();
}
