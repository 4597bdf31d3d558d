import type { z } from 'zod';

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

export type JobContext = {
  /** Aborted when the server stops (the job is handed back) or the job is no longer this worker's. */
  signal: AbortSignal;
  /** 1 for the first run; a run handed back at shutdown does not count. */
  attempt: number;
  /** Stores where the job is (a stage people read, the fraction done) for status queries. */
  progress: (stage: string, fraction: number | null) => void;
};

export type JobDefinition<P> = {
  /** The queue: one kind of work ("transcribe", "notes"). */
  name: string;
  /** The work as people read of it ("transcription"), in messages such as interruptedTooOften's. */
  label: string;
  /** Validates stored payloads, which may have been written by an older version of the server. */
  payload: z.ZodType<P>;
  /** Identifies a job of this kind (a meeting id): one queued or running job per key at a time. */
  keyOf: (payload: P) => string;
  run: (payload: P, context: JobContext) => Promise<void>;
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

/** Where a job of one key is, for the screens that show it (null stage/progress: not reported yet). */
export type JobState = {
  state: 'queued' | 'running' | 'succeeded' | 'failed';
  stage: string | null;
  progress: number | null;
  /** Runs so far, including the current one. */
  attempts: number;
  error: string | null;
};

export type JobHandle<P> = {
  /** Queues the job durably; a job of the same key already queued or running is left as it is. */
  enqueue: (payload: P) => Promise<void>;
  /** The latest job of each key, for keys that have one. */
  states: (keys: string[]) => Promise<Map<string, JobState>>;
  /** Jobs of this kind waiting (due or in backoff) and running, across all workers (the status page). */
  counts: () => Promise<{ queued: number; running: number }>;
};

export type JobQueue = {
  /** Declares a kind of job; call before start(). */
  define: <P>(definition: JobDefinition<P>) => JobHandle<P>;
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
