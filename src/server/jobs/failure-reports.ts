import type { JobQueue } from './job-queue.ts';

/** Told of a job that failed for good: its queue, its payload, and what its last run threw. */
export type JobFailureReport = (queue: string, payload: unknown, error: unknown) => void;

/**
 * The queue with every final failure reported (error reporting: the person's failed jobs). The
 * queue's own run policy decides what is final (runJob: no retry left, or not worth one) and says
 * so to the definition's onSettled; the error its last run threw is kept until then, by payload
 * (runJob hands run and onSettled the same object). A job whose runs kept dying reports its message.
 */
export function withFailureReports(queue: JobQueue, report: JobFailureReport): JobQueue {
  return {
    ...queue,
    define: (definition) => {
      const thrown = new WeakMap<object, unknown>();
      return queue.define({
        ...definition,
        run: async (payload, context) => {
          try {
            await definition.run(payload, context);
          } catch (error) {
            if (typeof payload === 'object' && payload !== null) thrown.set(payload, error);
            throw error;
          }
        },
        onSettled: async (payload, outcome) => {
          if (outcome.status === 'failed') {
            const error = typeof payload === 'object' && payload !== null ? thrown.get(payload) : undefined;
            report(definition.name, payload, error ?? new Error(outcome.error));
          }
          await definition.onSettled(payload, outcome);
        },
      });
    },
  };
}
