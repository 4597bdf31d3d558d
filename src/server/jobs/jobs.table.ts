/** The job queue's tables (migration 2026-11-23-1000). Timestamps are ISO-8601 UTC text. */
export type JobsTable = {
  id: string;
  queue: string;
  /** One row per (queue, key): a job queued again reuses its row. */
  key: string;
  /** JSON of the job's payload, checked by the queue's zod schema when claimed. */
  payload: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  /** Claims so far; a run handed back at shutdown is given back too. */
  attempts: number;
  max_attempts: number;
  /** Not before: backoff after a transient failure. */
  run_after: string;
  /** The worker holding the job and until when; a lease that ran out means the worker died. */
  lease_owner: string | null;
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
};

/**
 * Where a job is (both adapters): its stage (a name from its kind's list; free text in rows older
 * versions wrote), the fraction done, the part under way of how many, when a retry is due
 * (migration 2026-12-06-1020 added the last three).
 */
export type JobProgressTable = {
  queue: string;
  key: string;
  stage: string | null;
  progress: number | null;
  part: number | null;
  parts: number | null;
  retry_at: string | null;
  updated_at: string;
};

export type JobTables = { jobs: JobsTable; job_progress: JobProgressTable };
