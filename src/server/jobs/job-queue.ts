import type { z } from 'zod';
import type { QueueStage } from '#shared/contracts/job-progress.ts';

/**
 * The job-queue port: durable background work (transcription, notes, exports) that survives
 * restarts, never runs twice at once, retries outages with backoff and is picked up again when its
 * worker dies. Two adapters pass one contract suite (job-queue.int.test.ts): the leased SQL runner
 * (`sql/`, the embedded default on SQLite) and pg-boss (`pg-boss/`, on PostgreSQL).
 */

/** How one run of a job ended, as the job's owner feature hears of it. */
export type JobOutcome =
  | { status: 'succeeded' }
  | { status: 'retrying'; error: string; runAfter: Date }
  /** Final: a permanent failure, the last attempt, or a job whose runs kept dying with their process. */
  | { status: 'failed'; error: string };

/** Work done in parts (a long meeting's notes): the part under way (1-based) of how many. */
export type JobParts = { part: number; parts: number };

export type JobContext<S extends string = string> = {
  /** Aborted when the server stops (the job is handed back) or the job is no longer this worker's. */
  signal: AbortSignal;
  /** 1 for the first run; a run handed back at shutdown does not count. */
  attempt: number;
  /** Stores where the job is (one of its definition's stages, the fraction done, the part) for status queries. */
  progress: (stage: S, fraction: number | null, parts?: JobParts) => void;
};

/** Where a job is, as stored: what a run reports, or the queue's own stages (retryAt while waiting to retry). */
export type JobProgress<S extends string = string> = {
  stage: S | QueueStage;
  fraction: number | null;
  part?: number | null;
  parts?: number | null;
  retryAt?: string | null;
};

export type JobDefinition<P, S extends string = string> = {
  /** The queue: one kind of work ("transcribe", "notes"). */
  name: string;
  /** The work as people read of it ("transcription"), in messages such as interruptedTooOften's. */
  label: string;
  /** Validates stored payloads, which may have been written by an older version of the server. */
  payload: z.ZodType<P>;
  /**
   * The stages its runs report (the queue adds 'queued' and 'waiting to retry'). A stored stage
   * outside them, such as the free text older versions stored, reads as null: unknown.
   */
  stages: readonly S[];
  /** Identifies a job of this kind (a meeting id): one queued or running job per key at a time. */
  keyOf: (payload: P) => string;
  run: (payload: P, context: JobContext<S>) => Promise<void>;
  /** Whether a failed run is worth another try, and the words people read if it is not. */
  classify: (error: unknown) => { retryable: boolean; message: string };
  /** After every run (and when a dead worker's job gives up): announce it, update the owner's rows. */
  onSettled: (payload: P, outcome: JobOutcome) => Promise<void>;
  /** Runs of this kind one process works at the same time. */
  concurrency: number;
  /** Tries before a retryable failure becomes final (runs that died with their process count too). */
  maxAttempts: number;
  /** Wait before the first retry; each further retry waits twice as long (at most 30 minutes). */
  retryDelayMs: number;
};

/** Where a job of one key is, for the screens that show it (null stage/progress: not reported yet, or unknown). */
export type JobState<S extends string = string> = {
  state: 'queued' | 'running' | 'succeeded' | 'failed';
  stage: S | QueueStage | null;
  progress: number | null;
  /** Work done in parts: the part under way of how many (null otherwise). */
  part: number | null;
  parts: number | null;
  /** While waiting to retry: when the next try is due (ISO 8601). */
  retryAt: string | null;
  /** Runs so far, including the current one. */
  attempts: number;
  error: string | null;
};

/** A job that has reported nothing yet (or whose progress row is gone). */
export const NO_PROGRESS = { stage: null, progress: null, part: null, parts: null, retryAt: null } as const;

export type JobHandle<P, S extends string = string> = {
  /** Queues the job durably; a job of the same key already queued or running is left as it is. */
  enqueue: (payload: P) => Promise<void>;
  /** The latest job of each key, for keys that have one. */
  states: (keys: string[]) => Promise<Map<string, JobState<S>>>;
  /** Jobs of this kind waiting (due or in backoff) and running, across all workers (the status page). */
  counts: () => Promise<{ queued: number; running: number }>;
};

export type JobQueue = {
  /** Declares a kind of job; call before start(). */
  define: <P, S extends string = string>(definition: JobDefinition<P, S>) => JobHandle<P, S>;
  /** Starts working the defined queues (`work: false` for web-only processes, which only enqueue). */
  start: (options: { work: boolean }) => Promise<void>;
  /** Stops claiming, aborts running jobs and hands them back at once for the next worker. */
  stop: () => Promise<void>;
  /** Resolves when no job is runnable now and none runs in this process (tests, graceful waits). */
  idle: () => Promise<void>;
};

/** A job's lease: how long a worker may go without renewing it before the job is taken from it. */
export const DEFAULT_LEASE_MS = 60_000;
export const MAX_RETRY_DELAY_MS = 30 * 60 * 1000;

/** The wait before retry number `attempt` (1-based): doubling from the first delay, capped. */
export const retryDelayFor = (definition: Pick<JobDefinition<unknown>, 'retryDelayMs'>, attempt: number): number =>
  Math.min(MAX_RETRY_DELAY_MS, definition.retryDelayMs * 2 ** (attempt - 1));

/** What a job whose runs keep dying with their process ends with. */
export const interruptedTooOften = (label: string, runs: number): string =>
  `The ${label} was interrupted ${runs === 1 ? 'once' : `${runs} times`} before it could finish (the server stopped while working on it). Try again.`;
