import type { FastifyBaseLogger as Logger } from 'fastify';
import { bestEffort, failedBestEffort } from '#server/lib/best-effort.ts';

/**
 * The worker loop both queue adapters share: up to `concurrency` lanes, each claiming and running
 * jobs one after another until nothing is due, then resting until woken (an enqueue in this
 * process) or until the poll interval ends (a retry's backoff ran out, another process queued work).
 */
export type Lanes = {
  start: () => void;
  /** Stops claiming, aborts the runs under way and hands each back (release) once it has stopped. */
  stop: () => Promise<void>;
  wake: () => void;
  busy: () => boolean;
  isStopping: () => boolean;
};

type LaneOptions<J> = {
  queue: string;
  log: Logger;
  concurrency: number;
  pollMs: number;
  claim: () => Promise<J | undefined>;
  run: (job: J, signal: AbortSignal) => Promise<void>;
  /** Gives a job back without counting the run (graceful shutdown, or claimed while stopping). */
  release: (job: J) => Promise<void>;
};

export function createLanes<J>(options: LaneOptions<J>): Lanes {
  const { log, queue } = options;
  let running = false;
  const active = new Set<{ job: J; abort: AbortController; done: Promise<void> }>();
  const lanes = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  /** Counts wakes, so a lane whose claim found nothing knows whether work was queued while it looked. */
  let wakes = 0;
  /** Lanes whose claim is on its way (the others are running a job). */
  let claiming = 0;

  const runOne = async (job: J) => {
    const abort = new AbortController();
    const entry = { job, abort, done: options.run(job, abort.signal) };
    active.add(entry);
    await bestEffort('job-settlement', entry.done, log, { queue });
    active.delete(entry);
  };

  const lane = async () => {
    while (running) {
      const seen = wakes;
      claiming += 1;
      const job = await options.claim().finally(() => (claiming -= 1));
      if (job === undefined) {
        // Something was queued while this claim looked: look once more before resting.
        if (wakes === seen) return;
        continue;
      }
      // Stopped while the claim was on its way: give the job straight back for the next worker.
      if (!running) return options.release(job);
      // There was work: another lane looks for more beside this one. Lanes start one at a time, so
      // a wake with nothing to do (a poll, another process's enqueue) costs one claim, not one a lane.
      if (claiming === 0) addLane();
      await runOne(job);
    }
  };

  const addLane = () => {
    if (!running || lanes.size >= Math.max(1, options.concurrency)) return;
    const current: Promise<void> = lane()
      .catch((error: unknown) => failedBestEffort('job-lane', error, log, { queue }))
      .finally(() => {
        lanes.delete(current);
        if (running && lanes.size === 0) timer = setTimeout(fill, options.pollMs);
      });
    lanes.add(current);
  };

  const fill = () => {
    if (!running) return;
    clearTimeout(timer);
    wakes += 1;
    // A lane already looking sees this wake (it looks again if its claim finds nothing); lanes busy
    // running jobs do not, so one more starts.
    if (claiming === 0) addLane();
  };

  return {
    start: () => {
      if (running) return;
      running = true;
      fill();
    },
    stop: async () => {
      running = false;
      clearTimeout(timer);
      const runs = [...active];
      for (const run of runs) run.abort.abort(new Error('shutting down'));
      await Promise.all(
        runs.map(async ({ job, done }) => {
          await done.catch(() => undefined); // its failure was logged and counted by runOne
          await options.release(job);
        }),
      );
      await Promise.allSettled([...lanes]);
    },
    wake: fill,
    busy: () => active.size > 0 || lanes.size > 0,
    isStopping: () => !running,
  };
}

/**
 * Resolves when no lane of this process is busy and `pending` finds no job runnable or running
 * anywhere; meanwhile resting lanes are woken so due work is not left to the next poll.
 */
export async function waitUntilIdle(lanes: Lanes[], pending: () => Promise<boolean>, working: () => boolean): Promise<void> {
  for (;;) {
    const busy = lanes.some((lane) => lane.busy());
    if (!busy && !(await pending())) return;
    if (!busy && working()) for (const lane of lanes) lane.wake();
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
