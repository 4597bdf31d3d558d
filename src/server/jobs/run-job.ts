import type { FastifyBaseLogger as Logger } from 'fastify';
import { interruptedTooOften, retryDelayFor, type JobDefinition, type JobProgress } from './job-queue.ts';

/** How an adapter records the end of a run; each answers false (or undefined) when the job is no longer this worker's. */
export type JobSettler = {
  succeed: () => Promise<boolean>;
  /** Queues the next try after `delayMs`; answers when it will run. */
  retry: (error: string, delayMs: number) => Promise<Date | undefined>;
  fail: (error: string) => Promise<boolean>;
};

type RunInput<P, S extends string> = {
  payload: P;
  /** Runs so far including this one (runs handed back at shutdown do not count). */
  attempt: number;
  signal: AbortSignal;
  /** Records the progress; the handler need not wait for it, but the retry's stage is stored before onSettled. */
  progress: (progress: JobProgress<S>) => Promise<void>;
  /** True while the process stops: an aborted run is then handed back, not failed. */
  stopping: () => boolean;
};

/**
 * One run of a job, the same on every adapter: the crash-loop limit, the handler, the failure
 * classification (retry with backoff or fail), and the definition's onSettled after the adapter
 * has recorded the outcome.
 */
export async function runJob<P, S extends string>(definition: JobDefinition<P, S>, input: RunInput<P, S>, settle: JobSettler, log: Logger): Promise<void> {
  // Claimed more often than allowed without ever finishing: its runs keep dying with their process
  // (a crash, a kill), so stop instead of taking the server down again and again.
  if (input.attempt > definition.maxAttempts) {
    const error = interruptedTooOften(definition.label, input.attempt - 1);
    if (await settle.fail(error)) await definition.onSettled(input.payload, { status: 'failed', error });
    return;
  }
  try {
    await definition.run(input.payload, {
      signal: input.signal,
      attempt: input.attempt,
      progress: (stage, fraction, parts) => void input.progress({ stage, fraction, ...parts }),
    });
  } catch (error) {
    if (input.stopping() && input.signal.aborted) return; // handed back by the adapter
    const { retryable, message } = definition.classify(error);
    log.warn({ err: error, queue: definition.name, attempt: input.attempt, retryable }, 'job failed');
    if (retryable && input.attempt < definition.maxAttempts) {
      const runAfter = await settle.retry(message, retryDelayFor(definition, input.attempt));
      if (runAfter) await input.progress({ stage: 'waiting to retry', fraction: null, retryAt: runAfter.toISOString() });
      if (runAfter) await definition.onSettled(input.payload, { status: 'retrying', error: message, runAfter });
    } else if (await settle.fail(message)) {
      await definition.onSettled(input.payload, { status: 'failed', error: message });
    }
    return;
  }
  if (await settle.succeed()) await definition.onSettled(input.payload, { status: 'succeeded' });
}
