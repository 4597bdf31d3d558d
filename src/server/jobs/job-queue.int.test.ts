import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { migrateToLatest } from '#server/db/migrate.ts';
import { createTestDatabase, type TestDatabaseTarget } from '#tests/support/test-database.ts';
import { databaseEnv, killTestWorkers, startTestWorker, WORKER_START_MS } from '#tests/support/test-worker.ts';
import { createJobQueue, type JobQueueTimings } from './create-job-queue.ts';
import { interruptedTooOften, type JobContext, type JobDefinition, type JobOutcome, type JobQueue } from './job-queue.ts';

// The job-queue port's contract, run against the adapter of the project's database: the embedded
// SQL queue on SQLite, pg-boss on PostgreSQL. Every adapter must pass all of it.

type Payload = { key: string; note?: string };
const PayloadSchema = z.object({ key: z.string(), note: z.string().optional() });
const log = pino({ level: 'silent' });
/** pg-boss's heartbeat cannot be shorter than 10 s; the SQL queue's lease is shortened to 1 s here. */
const LEASE_MS = 1_000;
/**
 * How long a queued job may take to be picked up: pg-boss's first start installs its schema, and on two
 * cores shared with the rest of the suite a poll can wait its turn for seconds.
 */
const PICKED_UP_WITHIN_MS = 30_000;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const queues: JobQueue[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  await migrateToLatest(database.db);
});
afterEach(async () => {
  killTestWorkers();
  await Promise.all(queues.splice(0).map((queue) => queue.stop()));
});
afterAll(() => database.close());

/** Each test works its own queue, so nothing one test leaves behind reaches the next. */
let queueName = 'contract-0';
beforeEach(() => {
  queueName = `contract-${crypto.randomUUID().slice(0, 8)}`;
});

/** A queue process on the test database, with the test's queue, whose behaviour each test gives. */
async function startQueue(definition: Partial<JobDefinition<Payload>> & Pick<JobDefinition<Payload>, 'run'>, timings: JobQueueTimings = {}, work = true) {
  const queue = await createJobQueue(database, log, { leaseMs: LEASE_MS, monitorMs: 1_000, pollMs: 50, ...timings });
  queues.push(queue);
  const outcomes: { key: string; outcome: JobOutcome }[] = [];
  const handle = queue.define<Payload>({
    name: queueName,
    label: 'contract job',
    payload: PayloadSchema,
    stages: ['halfway', 'working'],
    keyOf: (p) => p.key,
    classify: (error) => ({
      retryable: error instanceof Error && error.message.startsWith('outage'),
      message: error instanceof Error ? error.message : 'failed',
    }),
    onSettled: async (payload, outcome) => {
      outcomes.push({ key: payload.key, outcome });
    },
    concurrency: 1,
    maxAttempts: 3,
    retryDelayMs: 1_000,
    ...definition,
  });
  await queue.start({ work });
  return { queue, handle, outcomes };
}

/** A worker in its own process (tests/support/job-queue-worker.ts), killed with SIGKILL by the test. */
const startWorkerProcess = (target: TestDatabaseTarget) =>
  startTestWorker('tests/support/job-queue-worker.ts', { ...databaseEnv(target), WORKER_LEASE_MS: String(LEASE_MS), WORKER_QUEUE: queueName });

const key = (name: string) => `${name}-${crypto.randomUUID()}`;

/**
 * Until the test opens the gate or the job's queue stops (which aborts its run): a failed assertion
 * must not leave a run waiting, or the afterEach hook stopping its queue would wait for it (onTestFinished
 * runs only after afterEach hooks).
 */
const gateOrStop = (gate: Promise<void>, signal: AbortSignal) =>
  Promise.race([gate, new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })))]);

describe('the job queue', { timeout: 90_000 }, () => {
  it('runs a queued job once with its payload, reports its progress and settles it as succeeded', async () => {
    const seen: Payload[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { queue, handle, outcomes } = await startQueue({
      run: async (payload, ctx) => {
        seen.push(payload);
        ctx.progress('halfway', 0.5);
        await gateOrStop(gate, ctx.signal);
      },
    });
    const k = key('simple');
    await handle.enqueue({ key: k, note: 'hello' });
    await expect.poll(async () => (await handle.states([k])).get(k)?.stage, { timeout: PICKED_UP_WITHIN_MS }).toBe('halfway');
    expect((await handle.states([k])).get(k)).toMatchObject({ state: 'running', progress: 0.5, attempts: 1, error: null });
    release();
    await queue.idle();
    expect(seen).toEqual([{ key: k, note: 'hello' }]);
    expect(outcomes).toEqual([{ key: k, outcome: { status: 'succeeded' } }]);
    expect((await handle.states([k])).get(k)).toMatchObject({ state: 'succeeded', attempts: 1 });
    expect((await handle.states(['never-queued'])).size).toBe(0);
  });

  it('keeps one job per key: queueing a key already queued or running changes nothing, a finished one runs again', async () => {
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { queue, handle } = await startQueue({
      run: async (_payload, ctx) => {
        runs++;
        ctx.progress('working', 0.25);
        if (runs === 1) await gateOrStop(gate, ctx.signal);
      },
    });
    const k = key('dedupe');
    await handle.enqueue({ key: k });
    await expect.poll(async () => (await handle.states([k])).get(k)?.stage, { timeout: PICKED_UP_WITHIN_MS }).toBe('working');
    await handle.enqueue({ key: k });
    await handle.enqueue({ key: k });
    // The running job keeps the stage its run reported: queueing its key again does not say 'queued'.
    expect((await handle.states([k])).get(k)).toMatchObject({ state: 'running', stage: 'working', progress: 0.25 });
    release();
    await queue.idle();
    expect(runs).toBe(1);
    await handle.enqueue({ key: k });
    await queue.idle();
    expect(runs).toBe(2);
  });

  it('reports the part under way, and reads a stored stage it does not know (an older version’s words) as none', async () => {
    let releaseFirst!: () => void;
    const first = new Promise<void>((resolve) => (releaseFirst = resolve));
    let releaseSecond!: () => void;
    const second = new Promise<void>((resolve) => (releaseSecond = resolve));
    const { queue, handle } = await startQueue({
      run: async (_payload, ctx) => {
        ctx.progress('halfway', 0.4, { part: 2, parts: 5 });
        await gateOrStop(first, ctx.signal);
        ctx.progress('working', null);
        await gateOrStop(second, ctx.signal);
      },
    });
    const k = key('parts');
    await handle.enqueue({ key: k });
    await expect.poll(async () => (await handle.states([k])).get(k)?.stage, { timeout: PICKED_UP_WITHIN_MS }).toBe('halfway');
    expect((await handle.states([k])).get(k)).toMatchObject({ state: 'running', stage: 'halfway', progress: 0.4, part: 2, parts: 5, retryAt: null });
    releaseFirst();
    await expect.poll(async () => (await handle.states([k])).get(k)?.stage, { timeout: 10_000 }).toBe('working');
    // A later report without parts leaves none behind.
    expect((await handle.states([k])).get(k)).toMatchObject({ stage: 'working', progress: null, part: null, parts: null });
    // Free text, as servers before typed stages stored it.
    await database.db.updateTable('job_progress').set({ stage: 'part 2 of 5' }).where('queue', '=', queueName).where('key', '=', k).execute();
    expect((await handle.states([k])).get(k)).toMatchObject({ state: 'running', stage: null });
    releaseSecond();
    await queue.idle();
  });

  it('retries a retryable failure after its backoff and succeeds, counting attempts', async () => {
    const attempts: number[] = [];
    const { queue, handle, outcomes } = await startQueue({
      run: async (_payload, ctx) => {
        attempts.push(ctx.attempt);
        if (ctx.attempt === 1) throw new Error('outage: the service is down');
      },
    });
    const k = key('retry');
    const queuedAt = Date.now();
    await handle.enqueue({ key: k });
    await expect.poll(() => outcomes.length, { timeout: PICKED_UP_WITHIN_MS }).toBeGreaterThan(0);
    const retrying = outcomes[0]!.outcome;
    expect(retrying).toMatchObject({ status: 'retrying', error: 'outage: the service is down' });
    expect(retrying.status === 'retrying' && retrying.runAfter.getTime()).toBeGreaterThanOrEqual(queuedAt + 900);
    expect((await handle.states([k])).get(k)).toMatchObject({ state: 'queued', stage: 'waiting to retry' });
    expect((await handle.states([k])).get(k)?.retryAt).toBe(retrying.status === 'retrying' && retrying.runAfter.toISOString());
    await expect.poll(() => outcomes.length, { timeout: 15_000 }).toBe(2);
    await queue.idle();
    expect(attempts).toEqual([1, 2]);
    expect(outcomes[1]!.outcome).toEqual({ status: 'succeeded' });
    expect((await handle.states([k])).get(k)).toMatchObject({ state: 'succeeded', attempts: 2 });
  });

  it('fails at once on a permanent failure, and after the last attempt on a retryable one, with the failure’s words', async () => {
    let outageRuns = 0;
    const { queue, handle, outcomes } = await startQueue({
      maxAttempts: 2,
      retryDelayMs: 200,
      run: async (payload) => {
        if (payload.note === 'broken') throw new Error('The audio could not be decoded');
        outageRuns++;
        throw new Error('outage: still down');
      },
    });
    const broken = key('broken');
    const down = key('down');
    await handle.enqueue({ key: broken, note: 'broken' });
    await handle.enqueue({ key: down });
    await expect.poll(() => outcomes.filter((o) => o.outcome.status === 'failed').length, { timeout: 20_000 }).toBe(2);
    await queue.idle();
    expect(outcomes.filter((o) => o.key === broken)).toEqual([{ key: broken, outcome: { status: 'failed', error: 'The audio could not be decoded' } }]);
    expect(outcomes.filter((o) => o.key === down).map((o) => o.outcome.status)).toEqual(['retrying', 'failed']);
    expect(outageRuns).toBe(2);
    const states = await handle.states([broken, down]);
    expect(states.get(broken)).toMatchObject({ state: 'failed', error: 'The audio could not be decoded', attempts: 1 });
    expect(states.get(down)).toMatchObject({ state: 'failed', error: 'outage: still down', attempts: 2 });
  });

  it('never runs a job twice at once, with two worker processes of two lanes each on one database', async () => {
    let concurrent = 0;
    let maxConcurrent = 0;
    const runs: string[] = [];
    let overlapped!: () => void;
    const overlap = new Promise<void>((resolve) => (overlapped = resolve));
    const run = async (payload: Payload, ctx: JobContext) => {
      concurrent++;
      maxConcurrent = Math.max(maxConcurrent, concurrent);
      if (concurrent > 1) overlapped();
      runs.push(payload.key);
      // The first runs wait (up to 10 s) for a second one beside them, so the lanes show they run side
      // by side on a machine too loaded to queue the next job within one run's 50 ms.
      await Promise.race([gateOrStop(overlap, ctx.signal), new Promise((resolve) => setTimeout(resolve, 10_000))]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      concurrent--;
    };
    const first = await startQueue({ run, concurrency: 2 });
    const second = await startQueue({ run, concurrency: 2 });
    const keys = Array.from({ length: 8 }, (_, i) => key(`pair-${i}`));
    for (const k of keys) await first.handle.enqueue({ key: k });
    await expect.poll(() => runs.length, { timeout: 30_000 }).toBe(8);
    await Promise.all([first.queue.idle(), second.queue.idle()]);
    expect([...runs].sort()).toEqual([...keys].sort());
    expect(maxConcurrent).toBeGreaterThan(1);
    expect(maxConcurrent).toBeLessThanOrEqual(4);
  });

  it('hands a running job back at once when its process stops, without counting the run, for the next worker to finish', async () => {
    const aborted: boolean[] = [];
    let started = false;
    const stopping = await startQueue({
      run: async (_payload, ctx) => {
        started = true;
        await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
        aborted.push(true);
        throw new Error('stopped');
      },
    });
    const k = key('handback');
    await stopping.handle.enqueue({ key: k });
    await expect.poll(() => started, { timeout: PICKED_UP_WITHIN_MS }).toBe(true);
    await stopping.queue.stop();
    expect(aborted).toEqual([true]);
    expect(stopping.outcomes).toEqual([]);
    const attempts: number[] = [];
    const next = await startQueue({ run: async (_payload, ctx) => void attempts.push(ctx.attempt) }, {}, false);
    expect((await next.handle.states([k])).get(k)).toMatchObject({ state: 'queued' });
    await next.queue.start({ work: true });
    const handedBackAt = Date.now();
    await expect.poll(() => next.outcomes.length, { timeout: PICKED_UP_WITHIN_MS }).toBe(1);
    expect(Date.now() - handedBackAt).toBeLessThan(5_000); // not after a lease or a backoff
    expect(attempts).toEqual([1]);
    expect((await next.handle.states([k])).get(k)).toMatchObject({ state: 'succeeded', attempts: 1 });
  });

  it('never queues again a job that finished while its process was stopping', async () => {
    let started = false;
    const stopping = await startQueue({
      // Work that ends normally although the queue stops meanwhile (it does not heed the abort).
      run: async (_payload, ctx) => {
        started = true;
        await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
        await new Promise((resolve) => setTimeout(resolve, 100));
      },
    });
    const k = key('finished-while-stopping');
    await stopping.handle.enqueue({ key: k });
    await expect.poll(() => started, { timeout: PICKED_UP_WITHIN_MS }).toBe(true);
    await stopping.queue.stop();
    expect(stopping.outcomes).toEqual([{ key: k, outcome: { status: 'succeeded' } }]);
    const runs: number[] = [];
    const next = await startQueue({ run: async (_payload, ctx) => void runs.push(ctx.attempt) });
    await next.queue.idle();
    expect(runs).toEqual([]);
    expect((await next.handle.states([k])).get(k)).toMatchObject({ state: 'succeeded', attempts: 1 });
  });

  it('picks up a job whose worker process died, once its lease has run out', { timeout: WORKER_START_MS + 60_000 }, async () => {
    const worker = await startWorkerProcess(database.target);
    // Queued while only the worker process works, so it is the one to take the job.
    const { queue, handle, outcomes } = await startQueue({ run: async () => undefined }, { pollMs: 200 }, false);
    const k = key('orphan');
    await handle.enqueue({ key: k });
    await worker.waitFor(`running ${k}`);
    await worker.kill();
    await queue.start({ work: true });
    await expect.poll(() => outcomes.length, { timeout: 45_000, interval: 200 }).toBe(1);
    expect(outcomes[0]).toEqual({ key: k, outcome: { status: 'succeeded' } });
    expect((await handle.states([k])).get(k)).toMatchObject({ state: 'succeeded', attempts: 2 });
  });

  it('fails a job whose runs keep dying with their process, instead of trying forever', { timeout: WORKER_START_MS + 60_000 }, async () => {
    const worker = await startWorkerProcess(database.target);
    let ran = false;
    const { queue, handle, outcomes } = await startQueue(
      {
        maxAttempts: 1,
        run: async () => {
          ran = true;
        },
      },
      { pollMs: 200 },
      false,
    );
    const k = key('crash-loop');
    await handle.enqueue({ key: k });
    await worker.waitFor(`running ${k}`);
    await worker.kill();
    await queue.start({ work: true });
    await expect.poll(() => outcomes.length, { timeout: 45_000, interval: 200 }).toBe(1);
    expect(outcomes[0]).toEqual({ key: k, outcome: { status: 'failed', error: interruptedTooOften('contract job', 1) } });
    expect(ran).toBe(false);
    expect((await handle.states([k])).get(k)).toMatchObject({ state: 'failed', error: interruptedTooOften('contract job', 1) });
  });

  it('enqueues without working in a web-only process, for a worker process to run', async () => {
    const web = await createJobQueue(database, log, { leaseMs: LEASE_MS, pollMs: 50 });
    queues.push(web);
    let ran = 0;
    const definition = {
      name: queueName,
      label: 'contract job',
      payload: PayloadSchema,
      stages: [],
      keyOf: (p: Payload) => p.key,
      classify: () => ({ retryable: false, message: 'x' }),
      onSettled: async () => undefined,
      concurrency: 1,
      maxAttempts: 3,
      retryDelayMs: 1_000,
      run: async () => {
        ran++;
      },
    };
    const handle = web.define(definition);
    await web.start({ work: false });
    const k = key('web-only');
    await handle.enqueue({ key: k });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ran).toBe(0);
    expect((await handle.states([k])).get(k)).toMatchObject({ state: 'queued', stage: 'queued' });
    const worker = await startQueue(definition);
    await expect.poll(async () => (await worker.handle.states([k])).get(k)?.state, { timeout: PICKED_UP_WITHIN_MS }).toBe('succeeded');
    expect(ran).toBe(1);
  });
});
