import type { JobQueueTimings } from '#server/jobs/create-job-queue.ts';

/**
 * The job queue in tests: pg-boss's monitor looks every second, so the status page's queue counts
 * follow quickly, and its vacuum check is off (create-job-queue.ts says why).
 */
export const TEST_JOB_TIMINGS = { monitorMs: 1_000, vacuumCheck: false } satisfies JobQueueTimings;
