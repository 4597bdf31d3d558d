import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '#server/db/create-db.ts';
import { claimNextJob, finishJob, hasRunnableJob, releaseJob, renewLease, recordProgress, type Job } from './jobs.repository.ts';

export type RunContext = {
  signal: AbortSignal;
  /** Stores and announces progress (throttled by the caller as it likes). */
  progress: (stage: string, fraction: number | null) => void;
};

export type JobHandlers = {
  run: (job: Job, ctx: RunContext) => Promise<void>;
  classify: (error: unknown) => { retryable: boolean; message: string };
  /** After the job row changed state: announce it, update the meeting. */
  onSettled: (job: Job, outcome: { status: 'succeeded' } | { status: 'failed'; error: string } | { status: 'retrying'; error: string; runAfter: number }) => Promise<void>;
};

export type JobRunner = {
  start: () => void;
  /** Stop claiming; abort the running jobs and hand them back so another worker takes them at once. */
  stop: () => Promise<void>;
  /** Look for work now (after an enqueue) instead of at the next poll. */
  wake: () => void;
  /** Resolves when no job is runnable now and none is running here (tests, graceful waits). */
  idle: () => Promise<void>;
};

type RunnerOptions = {
  db: Db;
  log: FastifyBaseLogger;
  handlers: JobHandlers;
  /** Jobs run at the same time in this process (TRANSCRIBE_CONCURRENCY); 1 by default. */
  concurrency?: number;
  leaseMs?: number;
  pollMs?: number;
  retryDelayMs: number;
};

const MAX_RETRY_DELAY_MS = 30 * 60 * 1000;

class InterruptedTooOftenError extends Error {
  constructor(runs: number) {
    super(`The transcription was interrupted ${runs} times before it could finish (the server stopped while working on it). Try again.`);
    this.name = 'InterruptedTooOftenError';
  }
}

type ActiveRun = { job: Job; abort: AbortController; done: Promise<void> };

/**
 * Runs transcription jobs in this process, up to `concurrency` at once, each claimed from the
 * database under a lease renewed while it runs. Several processes may run runners against one
 * database: the claim itself decides who gets a job.
 */
export function createJobRunner(options: RunnerOptions): JobRunner {
  const { db, log, handlers } = options;
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const leaseMs = options.leaseMs ?? 60_000;
  const pollMs = options.pollMs ?? 2_000;
  const worker = `${process.pid}-${crypto.randomUUID().slice(0, 8)}`;
  let running = false;
  const active = new Map<string, ActiveRun>();
  /** Each lane claims and runs jobs one after another until there is nothing to claim. */
  const lanes = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let wakeRequested = false;

  const runOne = async (job: Job) => {
    const abort = new AbortController();
    const heartbeat = setInterval(() => {
      renewLease(db, job.id, worker, leaseMs).then(
        (held) => {
          if (!held) abort.abort(new Error('lease lost'));
        },
        (error: unknown) => log.warn({ err: error }, 'lease renewal failed'),
      );
    }, leaseMs / 3);
    const done = (async () => {
      try {
        // Claimed more often than allowed without ever finishing: its runs keep dying with their
        // process (a crash, a kill), so stop instead of taking the server down again and again.
        if (job.attempts > job.max_attempts) throw new InterruptedTooOftenError(job.attempts - 1);
        await handlers.run(job, {
          signal: abort.signal,
          progress: (stage, fraction) => void recordProgress(db, job.id, worker, stage, fraction).catch(() => undefined),
        });
        if (await finishJob(db, job.id, worker, { status: 'succeeded' })) await handlers.onSettled(job, { status: 'succeeded' });
      } catch (error) {
        if (!running && abort.signal.aborted) return; // shutting down: released by stop()
        const { retryable, message } = error instanceof InterruptedTooOftenError ? { retryable: false, message: error.message } : handlers.classify(error);
        log.warn({ err: error, meetingId: job.meeting_id, attempt: job.attempts, retryable }, 'transcription job failed');
        if (retryable && job.attempts < job.max_attempts) {
          const runAfter = Date.now() + Math.min(MAX_RETRY_DELAY_MS, options.retryDelayMs * 2 ** (job.attempts - 1));
          if (await finishJob(db, job.id, worker, { status: 'queued', error: message, runAfter })) await handlers.onSettled(job, { status: 'retrying', error: message, runAfter });
        } else if (await finishJob(db, job.id, worker, { status: 'failed', error: message })) {
          await handlers.onSettled(job, { status: 'failed', error: message });
        }
      } finally {
        clearInterval(heartbeat);
      }
    })();
    active.set(job.id, { job, abort, done });
    await done;
    active.delete(job.id);
  };

  const lane = async () => {
    while (running) {
      const job = await claimNextJob(db, worker, leaseMs);
      if (!job) {
        // Something was queued while this claim looked: look once more before resting.
        if (wakeRequested) {
          wakeRequested = false;
          continue;
        }
        return;
      }
      // Stopped while the claim was on its way: give the job straight back for the next worker.
      if (!running) {
        await releaseJob(db, job.id, worker);
        return;
      }
      await runOne(job);
    }
  };

  const fillLanes = () => {
    if (!running) return;
    clearTimeout(timer);
    wakeRequested = true;
    while (lanes.size < concurrency) {
      const current: Promise<void> = lane()
        .catch((error: unknown) => log.error({ err: error }, 'job runner error'))
        .finally(() => {
          lanes.delete(current);
          // The last lane to rest polls again later (a retry's backoff ends, another server queued work).
          if (running && lanes.size === 0) timer = setTimeout(fillLanes, pollMs);
        });
      lanes.add(current);
    }
  };

  return {
    start: () => {
      if (running) return;
      running = true;
      fillLanes();
    },
    stop: async () => {
      running = false;
      clearTimeout(timer);
      const runs = [...active.values()];
      for (const run of runs) run.abort.abort(new Error('shutting down'));
      await Promise.all(
        runs.map(async ({ job, done }) => {
          await done.catch(() => undefined);
          await releaseJob(db, job.id, worker);
        }),
      );
      await Promise.allSettled([...lanes]);
    },
    wake: fillLanes,
    idle: async () => {
      for (;;) {
        if (active.size === 0 && lanes.size === 0 && !(await hasRunnableJob(db))) return;
        if (lanes.size === 0) fillLanes();
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  };
}
