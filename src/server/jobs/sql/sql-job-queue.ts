import crypto from 'node:crypto';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Db } from '#server/db/create-db.ts';
import { bestEffort, failedBestEffort } from '#server/lib/best-effort.ts';
import { clearJobProgress, jobProgressOf, recordJobProgress } from '../job-progress.repository.ts';
import { DEFAULT_LEASE_MS, NO_PROGRESS, type JobDefinition, type JobHandle, type JobQueue, type JobState } from '../job-queue.ts';
import { createLanes, waitUntilIdle, type Lanes } from '../lanes.ts';
import { runJob } from '../run-job.ts';
import { claimJob, countJobs, hasPendingJob, insertJob, jobsOfKeys, releaseJob, renewLease, settleJob, type JobRow } from './sql-jobs.repository.ts';

type SqlQueueOptions = {
  db: Db;
  log: Logger;
  /** How long a worker may go without renewing a job's lease (tests shorten it). */
  leaseMs?: number;
  /** How often resting lanes look for due work (retries whose backoff ended, other servers' jobs). */
  pollMs?: number;
};

/**
 * The embedded queue: jobs are rows of `jobs`, claimed with one conditional UPDATE under a lease the
 * worker renews while it runs. Works on SQLite and PostgreSQL alike; several processes may work one
 * database, the claim decides who gets a job.
 */
export function createSqlJobQueue(options: SqlQueueOptions): JobQueue {
  const { db, log } = options;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const worker = `${process.pid}-${crypto.randomUUID().slice(0, 8)}`;
  const lanesByQueue = new Map<string, Lanes>();
  let working = false;

  const define = <P, S extends string>(definition: JobDefinition<P, S>): JobHandle<P, S> => {
    const queue = definition.name;
    const lanes: Lanes = createLanes<JobRow>({
      queue,
      log,
      concurrency: definition.concurrency,
      pollMs: options.pollMs ?? 2_000,
      claim: () => claimJob(db, queue, worker, leaseMs),
      release: (job) => releaseJob(db, job.id, worker),
      run: async (job, signal) => {
        const abort = new AbortController();
        signal.addEventListener('abort', () => abort.abort(signal.reason), { once: true });
        const heartbeat = setInterval(() => {
          renewLease(db, job.id, worker, leaseMs).then(
            (held) => held || abort.abort(new Error('lease lost')),
            (error: unknown) => failedBestEffort('job-lease', error, log, { queue }),
          );
        }, leaseMs / 3);
        try {
          const parsed = definition.payload.safeParse(JSON.parse(job.payload));
          if (!parsed.success) {
            log.error({ queue, key: job.key }, 'a stored job payload no longer parses: failed without running');
            await settleJob(db, job.id, worker, { status: 'failed', error: 'The job could not be read.' });
            return;
          }
          const settled = async (ok: boolean, final: boolean) => {
            if (ok && final) await clearJobProgress(db, queue, job.key);
            return ok;
          };
          await runJob(
            definition,
            {
              payload: parsed.data,
              attempt: job.attempts,
              signal: abort.signal,
              progress: (progress) => bestEffort('job-progress', recordJobProgress(db, queue, job.key, progress), log, { queue }),
              stopping: lanes.isStopping,
            },
            {
              succeed: async () => settled(await settleJob(db, job.id, worker, { status: 'succeeded' }), true),
              fail: async (error) => settled(await settleJob(db, job.id, worker, { status: 'failed', error }), true),
              retry: async (error, delayMs) => {
                const runAfter = Date.now() + delayMs;
                const ok = await settleJob(db, job.id, worker, { status: 'queued', error, runAfter });
                return ok ? new Date(runAfter) : undefined;
              },
            },
            log,
          );
        } finally {
          clearInterval(heartbeat);
        }
      },
    });
    lanesByQueue.set(queue, lanes);
    return {
      enqueue: async (payload) => {
        const key = definition.keyOf(payload);
        // The job and its 'queued' stage become visible together: written after it, the stage could
        // land on top of one its run had already reported. A key already queued or running keeps its stage.
        await db.transaction().execute(async (trx) => {
          if (await insertJob(trx, { queue, key, payload, maxAttempts: definition.maxAttempts }))
            await recordJobProgress(trx, queue, key, { stage: 'queued', fraction: null });
        });
        if (working) lanes.wake();
      },
      states: (keys) => statesOf(db, queue, keys, definition.stages),
      counts: () => countJobs(db, queue),
    };
  };

  return {
    define,
    start: async ({ work }) => {
      working = work;
      if (work) for (const lanes of lanesByQueue.values()) lanes.start();
    },
    stop: async () => {
      working = false;
      await Promise.all([...lanesByQueue.values()].map((lanes) => lanes.stop()));
    },
    idle: () =>
      waitUntilIdle(
        [...lanesByQueue.values()],
        () => hasPendingJob(db, [...lanesByQueue.keys()]),
        () => working,
      ),
  };
}

async function statesOf<S extends string>(db: Db, queue: string, keys: string[], stages: readonly S[]): Promise<Map<string, JobState<S>>> {
  const [rows, progress] = await Promise.all([jobsOfKeys(db, queue, keys), jobProgressOf(db, queue, keys, stages)]);
  return new Map(
    rows.map((row) => [
      row.key,
      {
        state: row.status,
        ...(progress.get(row.key) ?? NO_PROGRESS),
        attempts: row.attempts,
        error: row.last_error,
      },
    ]),
  );
}
