/**
 * A worker process for the job queue's contract tests: it opens the test database named in its
 * environment, works the queue named in WORKER_QUEUE with a handler that never finishes, and prints "running
 * <key>" when a job starts — so the test can kill -9 it mid-job, as a crash would.
 */
import { pino } from 'pino';
import { z } from 'zod';
import { createJobQueue } from '#server/jobs/create-job-queue.ts';
import { openWorkerDatabase } from './worker-database.ts';

const env = z
  .object({
    WORKER_LEASE_MS: z.coerce.number(),
    WORKER_QUEUE: z.string(),
  })
  .parse(process.env);
const database = openWorkerDatabase();
const queue = await createJobQueue(database, pino({ level: 'warn' }, pino.destination(2)), { leaseMs: env.WORKER_LEASE_MS, monitorMs: 1000, pollMs: 50 });
queue.define({
  name: env.WORKER_QUEUE,
  label: 'contract job',
  payload: z.object({ key: z.string() }),
  stages: [],
  keyOf: (p) => p.key,
  run: async (p) => {
    console.log(`running ${p.key}`);
    await new Promise(() => undefined);
  },
  classify: () => ({ retryable: false, message: 'x' }),
  onSettled: async () => undefined,
  concurrency: 1,
  maxAttempts: 3,
  retryDelayMs: 1000,
});
await queue.start({ work: true });
console.log('ready');
