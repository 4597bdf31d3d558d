import { PgBoss, type JobWithMetadata } from 'pg-boss';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { z } from 'zod';
import type { Db } from '#server/db/create-db.ts';
import { bestEffort } from '#server/lib/best-effort.ts';
import { clearJobProgress, jobProgressOf, recordJobProgress } from '../job-progress.repository.ts';
import { DEFAULT_LEASE_MS, MAX_RETRY_DELAY_MS, NO_PROGRESS, type JobDefinition, type JobHandle, type JobQueue, type JobState } from '../job-queue.ts';
import { createLanes, waitUntilIdle, type Lanes } from '../lanes.ts';
import { runJob } from '../run-job.ts';

type PgBossQueueOptions = {
  /** Our database (job progress lives in our own `job_progress` table). */
  db: Db;
  /** pg-boss keeps its jobs in its own schema of the same PostgreSQL database. */
  connectionString: string;
  schema: string;
  log: Logger;
  /** Heartbeat contract: a worker silent this long is taken to be dead (pg-boss's minimum is 10 s). */
  leaseMs?: number;
  /** How often pg-boss's monitor looks for dead workers' jobs. */
  monitorMs?: number;
  pollMs?: number;
  /** pg-boss's vacuum health check (create-job-queue.ts says when it is off). */
  vacuumCheck?: boolean;
};

/**
 * What we store as a pg-boss job's data: the domain's payload, and the runs of earlier pg-boss jobs
 * for the same work (a job handed back at shutdown is re-sent, so its count starts again).
 */
const Envelope = z.object({ payload: z.unknown(), priorRuns: z.number().int().nonnegative().default(0) });
type Envelope = z.infer<typeof Envelope>;
type Claimed = JobWithMetadata<Envelope>;

/** How many jobs a command changed (pg-boss answers it; its type declaration leaves the field out). */
const affected = (response: unknown): number => z.object({ affected: z.number() }).safeParse(response).data?.affected ?? 0;

/** How a run that failed for good is recorded: pg-boss retries every failure it is told of. */
const FailedOutput = z.object({ failed: z.literal(true), error: z.string() });

/**
 * The job-queue port on pg-boss (PostgreSQL's well-kept queue), for deployments on PostgreSQL and
 * separate worker processes. Lanes fetch jobs themselves, so this process decides the concurrency,
 * the retry policy (classify, backoff) and the crash-loop limit exactly as the embedded queue does;
 * pg-boss provides the storage, the exclusive claim, one job per key, heartbeats and the retry of a
 * dead worker's job.
 */
export async function createPgBossJobQueue(options: PgBossQueueOptions): Promise<JobQueue> {
  const { db, log } = options;
  const leaseSeconds = Math.max(10, Math.round((options.leaseMs ?? DEFAULT_LEASE_MS) / 1000));
  const monitorSeconds = Math.max(1, Math.round((options.monitorMs ?? 30_000) / 1000));
  const boss = new PgBoss({
    connectionString: options.connectionString,
    schema: options.schema,
    max: 4,
    superviseIntervalSeconds: monitorSeconds,
    monitorIntervalSeconds: monitorSeconds,
    monitorVacuum: options.vacuumCheck ?? true,
    schedule: false,
  });
  boss.on('error', (error) => log.error({ err: error }, 'pg-boss error'));
  const definitions: QueueSettings[] = [];
  const lanesByQueue = new Map<string, Lanes>();
  let working = false;
  /** pg-boss starts on first use (a web process may enqueue or read states before start()). */
  let started: Promise<void> | undefined;
  const ready = (): Promise<void> => {
    started ??= (async () => {
      await boss.start();
      for (const definition of definitions) await ensureQueue(boss, definition, leaseSeconds);
    })().catch((error: unknown) => {
      started = undefined;
      throw error;
    });
    return started;
  };

  const define = <P, S extends string>(definition: JobDefinition<P, S>): JobHandle<P, S> => {
    const queue = definition.name;
    definitions.push(definition);
    /**
     * A queue whose runs report no stages (event deliveries) keeps no progress rows: each would cost
     * two more round trips a job, and nothing shows them.
     */
    const tracksProgress = definition.stages.length > 0;
    const send = async (payload: P, priorRuns: number) => {
      await ready();
      return boss.send(queue, { payload, priorRuns } satisfies Envelope, {
        singletonKey: definition.keyOf(payload),
        // One more claim than attempts: the extra one finds the limit reached and fails the job.
        retryLimit: Math.max(0, definition.maxAttempts - priorRuns),
      });
    };
    const lanes: Lanes = createLanes<Claimed>({
      queue,
      log,
      concurrency: definition.concurrency,
      pollMs: options.pollMs ?? 2_000,
      claim: async () => (await boss.fetch<Envelope>(queue, { batchSize: 1, includeMetadata: true }))[0],
      // Handed back at once and without counting the run: cancelled, then sent again fresh. Only a
      // run still holding its claim is sent again: one that settled while the queue stopped (it
      // finished, failed or was retried) must not be queued a second time.
      release: async (job) => {
        const envelope = Envelope.parse(job.data);
        if (affected(await boss.cancel(queue, { id: job.id, retryCount: job.retryCount })) === 0) return;
        await send(envelope.payload as P, envelope.priorRuns + job.retryCount);
      },
      run: async (job, signal) => {
        const envelope = Envelope.safeParse(job.data);
        const parsed = definition.payload.safeParse(envelope.data?.payload);
        const attempt = { id: job.id, retryCount: job.retryCount };
        if (!envelope.success || !parsed.success) {
          log.error({ queue, id: job.id }, 'a stored job payload no longer parses: failed without running');
          await boss.complete(queue, attempt, { failed: true, error: 'The job could not be read.' });
          return;
        }
        const key = definition.keyOf(parsed.data);
        const heartbeat = setInterval(() => void bestEffort('job-lease', boss.touch(queue, attempt), log, { queue }), (leaseSeconds * 1000) / 3);
        const settled = async (affected: number, final: boolean) => {
          if (affected > 0 && final && tracksProgress) await clearJobProgress(db, queue, key);
          return affected > 0;
        };
        try {
          await runJob(
            definition,
            {
              payload: parsed.data,
              attempt: envelope.data.priorRuns + job.retryCount + 1,
              signal,
              progress: async (progress) => {
                if (tracksProgress) await bestEffort('job-progress', recordJobProgress(db, queue, key, progress), log, { queue });
              },
              stopping: lanes.isStopping,
            },
            {
              succeed: async () => settled(affected(await boss.complete(queue, attempt)), true),
              fail: async (error) => settled(affected(await boss.complete(queue, attempt, { failed: true, error })), true),
              retry: async (error, delayMs) => {
                if (affected(await boss.fail(queue, attempt, { message: error })) === 0) return undefined;
                const [retried] = await boss.findJobs<Envelope>(queue, { id: job.id });
                return retried?.startAfter ?? new Date(Date.now() + delayMs);
              },
            },
            log,
          );
        } finally {
          clearInterval(heartbeat);
        }
      },
    });
    lanesByQueue.set(queue, lanes);
    return {
      enqueue: async (payload) => {
        const key = definition.keyOf(payload);
        await ready();
        if (!tracksProgress) {
          // pg-boss keeps one job per key; without stages there is no 'queued' stage to write.
          await send(payload, 0);
          if (working) lanes.wake();
          return;
        }
        const unfinished = (await boss.findJobs<Envelope>(queue, { key })).some((job) => ['queued', 'running'].includes(stateOf(job)));
        if (unfinished) {
          // pg-boss keeps the one job per key; the job there keeps its stage.
          await send(payload, 0);
        } else {
          // The stage before the job: written after it, 'queued' could land on top of a stage its run
          // (in this process or another) had already reported.
          await recordJobProgress(db, queue, key, { stage: 'queued', fraction: null });
          try {
            await send(payload, 0);
          } catch (error) {
            // The send's failure is what the caller hears; a stale 'queued' stage is only counted.
            await bestEffort('job-progress-clear', clearJobProgress(db, queue, key), log, { queue });
            throw error;
          }
        }
        if (working) lanes.wake();
      },
      states: async (keys) => {
        await ready();
        return statesOf(boss, db, queue, keys, definition.stages);
      },
      // As of pg-boss's last monitor pass (at most monitorMs old): counting the jobs themselves would
      // read every stored job of the queue on each look at the status page.
      counts: async () => {
        await ready();
        const stats = await boss.getQueue(queue);
        return { queued: stats?.queuedCount ?? 0, running: stats?.activeCount ?? 0 };
      },
    };
  };

  return {
    define,
    start: async ({ work }) => {
      await ready();
      working = work;
      if (work) for (const lanes of lanesByQueue.values()) lanes.start();
    },
    stop: async () => {
      working = false;
      await Promise.all([...lanesByQueue.values()].map((lanes) => lanes.stop()));
      if (started) await boss.stop({ graceful: false, close: true });
      started = undefined;
    },
    idle: () =>
      waitUntilIdle(
        [...lanesByQueue.values()],
        async () => {
          await ready();
          return hasPendingJob(boss, [...lanesByQueue.keys()]);
        },
        () => working,
      ),
  };
}

type QueueSettings = Pick<JobDefinition<unknown>, 'name' | 'maxAttempts' | 'retryDelayMs'>;

/** Creates the queue, or brings an existing one's settings up to date. */
async function ensureQueue(boss: PgBoss, definition: QueueSettings, leaseSeconds: number): Promise<void> {
  const settings = {
    retryLimit: definition.maxAttempts,
    retryDelay: Math.max(1, Math.round(definition.retryDelayMs / 1000)),
    retryBackoff: true,
    retryDelayMax: MAX_RETRY_DELAY_MS / 1000,
    heartbeatSeconds: leaseSeconds,
    // A run may take hours (a long recording on a slow engine); the heartbeat finds dead workers.
    expireInSeconds: 24 * 60 * 60,
  };
  if (await boss.getQueue(definition.name)) await boss.updateQueue(definition.name, settings);
  else await boss.createQueue(definition.name, { policy: 'exclusive', ...settings });
}

function stateOf(job: JobWithMetadata<Envelope>): JobState['state'] {
  switch (job.state) {
    case 'created':
    case 'retry':
      return 'queued';
    case 'active':
      return 'running';
    case 'completed':
      return FailedOutput.safeParse(job.output).success ? 'failed' : 'succeeded';
    default:
      return 'failed';
  }
}

async function statesOf<S extends string>(boss: PgBoss, db: Db, queue: string, keys: string[], stages: readonly S[]): Promise<Map<string, JobState<S>>> {
  const progress = await jobProgressOf(db, queue, keys, stages);
  const states = new Map<string, JobState<S>>();
  for (const key of keys) {
    const latest = (await boss.findJobs<Envelope>(queue, { key })).at(-1);
    if (!latest) continue;
    const failed = FailedOutput.safeParse(latest.output);
    const priorRuns = Envelope.safeParse(latest.data).data?.priorRuns ?? 0;
    const started = latest.state !== 'created' || latest.retryCount > 0;
    const state = stateOf(latest);
    states.set(key, {
      state,
      // A queue without stages keeps no progress rows: its queued jobs are at the 'queued' stage all the same.
      ...(progress.get(key) ?? (state === 'queued' ? { ...NO_PROGRESS, stage: 'queued' as const } : NO_PROGRESS)),
      attempts: priorRuns + latest.retryCount + (started ? 1 : 0),
      error: failed.success ? failed.data.error : (z.object({ message: z.string() }).safeParse(latest.output).data?.message ?? null),
    });
  }
  return states;
}

async function hasPendingJob(boss: PgBoss, queues: string[]): Promise<boolean> {
  // startAfter is the database's clock, which may run a little ahead of this process's.
  const now = Date.now() + 500;
  for (const queue of queues) {
    const jobs = await boss.findJobs(queue);
    if (jobs.some((job) => job.state === 'active' || ((job.state === 'created' || job.state === 'retry') && job.startAfter.getTime() <= now))) return true;
  }
  return false;
}
