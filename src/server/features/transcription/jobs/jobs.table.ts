/** The durable transcription jobs (migration 2026-11-22-1500). Timestamps are ISO-8601 UTC text. */
export type TranscriptionJobsTable = {
  id: string;
  /** One job row per meeting: a retry re-queues the same row. */
  meeting_id: string;
  owner_id: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  attempts: number;
  max_attempts: number;
  /** Not before: backoff after a transient failure. */
  run_after: string;
  /** The worker holding the job and until when; an expired lease means the worker died. */
  lease_owner: string | null;
  lease_until: string | null;
  stage: string | null;
  progress: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
};

export type TranscriptionJobTables = { transcription_jobs: TranscriptionJobsTable };
