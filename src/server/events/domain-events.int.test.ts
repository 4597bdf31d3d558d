import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DomainEvent, NewDomainEvent } from '#shared/contracts/events.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import { createJobQueue } from '#server/jobs/create-job-queue.ts';
import type { JobQueue } from '#server/jobs/job-queue.ts';
import { createTestDatabase } from '#tests/support/test-database.ts';
import { createDomainEvents, eventOperations, PermanentEventFailure, type DomainEvents, type EventHandler } from './domain-events.ts';

// Domain events on the project's database and its job queue (SQLite: the SQL queue; PostgreSQL: pg-boss).

const log = pino({ level: 'silent' });
let database: Awaited<ReturnType<typeof createTestDatabase>>;
const running: { jobs: JobQueue; events: DomainEvents }[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  await migrateToLatest(database.db);
});
afterEach(async () => {
  for (const { jobs, events } of running.splice(0)) {
    events.stop();
    await jobs.stop();
  }
});
afterAll(() => database.close());

/** A process's events: each test names its own subscribers, so nothing one test leaves reaches the next. */
async function startEvents(subscribers: Record<string, EventHandler>, options: { maxAttempts?: number; work?: boolean } = {}) {
  const jobs = await createJobQueue(database, log, { leaseMs: 1_000, monitorMs: 1_000, pollMs: 50 });
  const events = createDomainEvents({ db: database.db, jobs, log, now: () => new Date(), maxAttempts: options.maxAttempts ?? 3, retryDelayMs: 100 });
  for (const [name, handler] of Object.entries(subscribers)) events.subscribe(name, ['meeting.updated', 'meeting.deleted'], handler);
  await jobs.start({ work: options.work ?? true });
  events.start();
  running.push({ jobs, events });
  return { jobs, events };
}

const suffix = () => crypto.randomUUID().slice(0, 8);
const updated = (meetingId: string, field: string): NewDomainEvent => ({
  type: 'meeting.updated',
  actorId: null,
  ownerId: null,
  teamId: null,
  subject: { type: 'meeting', id: meetingId },
  payload: { fields: [field] },
});

describe('domain events', () => {
  it('delivers an event to each subscriber once its transaction commits, and nothing of a rolled-back one', async () => {
    const seen: { a: string[]; b: string[] } = { a: [], b: [] };
    const a = `a-${suffix()}`;
    const b = `b-${suffix()}`;
    const { jobs, events } = await startEvents({
      [a]: async (event) => void seen.a.push(`${event.subject.id}:${event.type}`),
      [b]: async (event) => void seen.b.push(`${event.subject.id}:${event.type}`),
    });
    const meetingId = crypto.randomUUID();
    await events.transaction(async (_trx, raise) => raise(updated(meetingId, 'title')));
    await expect(
      events.transaction(async (_trx, raise) => {
        raise(updated(meetingId, 'never'));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await jobs.idle();
    expect(seen).toEqual({ a: [`${meetingId}:meeting.updated`], b: [`${meetingId}:meeting.updated`] });
  });

  it("keeps one subject's events in order for a subscriber, even while an earlier one is retried", async () => {
    const name = `ordered-${suffix()}`;
    const seen: string[] = [];
    let failuresLeft = 2;
    const { jobs, events } = await startEvents({
      [name]: async (event) => {
        if (event.type !== 'meeting.updated') return;
        const field = event.payload.fields[0] ?? '';
        if (field === 'first' && failuresLeft-- > 0) throw new Error('an outage');
        seen.push(field);
      },
    });
    const meetingId = crypto.randomUUID();
    for (const field of ['first', 'second', 'third']) await events.transaction(async (_trx, raise) => raise(updated(meetingId, field)));
    await expect.poll(() => seen, { timeout: 30_000 }).toEqual(['first', 'second', 'third']);
    await jobs.idle();
    expect((await events.failed()).filter((d) => d.subscriber === name)).toEqual([]);
  });

  it('leaves a delivery that keeps failing dead, lists it, and delivers it again when retried', async () => {
    const name = `dead-${suffix()}`;
    let broken = true;
    const seen: DomainEvent[] = [];
    const { jobs, events } = await startEvents(
      {
        [name]: async (event) => {
          if (broken) throw new Error('the mail server refused');
          seen.push(event);
        },
      },
      { maxAttempts: 2 },
    );
    const meetingId = crypto.randomUUID();
    await events.transaction(async (_trx, raise) => raise(updated(meetingId, 'title')));
    await expect.poll(async () => (await events.failed()).filter((d) => d.subscriber === name), { timeout: 30_000 }).toHaveLength(1);
    const [dead] = (await events.failed()).filter((d) => d.subscriber === name);
    expect(dead).toMatchObject({ type: 'meeting.updated', subject: `meeting:${meetingId}`, attempts: 2, error: 'the mail server refused' });

    broken = false;
    expect(await events.retry(dead!.id)).toBe(true);
    expect(await events.retry(dead!.id)).toBe(false); // pending now, no longer dead
    await expect.poll(() => seen.length, { timeout: 30_000 }).toBe(1);
    await jobs.idle();
    expect(seen[0]).toMatchObject({ type: 'meeting.updated', subject: { type: 'meeting', id: meetingId }, payload: { fields: ['title'] } });
    expect((await events.failed()).filter((d) => d.subscriber === name)).toEqual([]);
  });

  it('fails a delivery at once on a permanent failure, and goes on with the next event of the subject', async () => {
    const name = `permanent-${suffix()}`;
    const seen: string[] = [];
    const { jobs, events } = await startEvents({
      [name]: async (event) => {
        if (event.type !== 'meeting.updated') return;
        if (event.payload.fields[0] === 'bad') throw new PermanentEventFailure('this event cannot be handled');
        seen.push(event.payload.fields[0] ?? '');
      },
    });
    const meetingId = crypto.randomUUID();
    await events.transaction(async (_trx, raise) => {
      raise(updated(meetingId, 'bad'));
      raise(updated(meetingId, 'good'));
    });
    await expect.poll(() => seen, { timeout: 30_000 }).toEqual(['good']);
    await jobs.idle();
    const dead = (await events.failed()).filter((d) => d.subscriber === name);
    expect(dead).toMatchObject([{ attempts: 1, error: 'this event cannot be handled' }]);
  });

  it('queues the events of a transaction that joins an outer one of its own once the outer commits, without waiting for a sweep', async () => {
    const name = `joined-${suffix()}`;
    const seen: string[] = [];
    const { jobs, events } = await startEvents({
      [name]: async (event) => {
        if (event.type === 'meeting.updated') seen.push(`${event.subject.id}:${event.payload.fields[0] ?? ''}`);
      },
    });
    const outerMeeting = crypto.randomUUID();
    const innerMeeting = crypto.randomUUID();
    // A service's change that calls another service's inside it: two subjects, one commit.
    await events.transaction(async (trx, raise) => {
      raise(updated(outerMeeting, 'outer'));
      await events.transaction(async (_inner, raiseInner) => raiseInner(updated(innerMeeting, 'inner')), trx);
    });
    await jobs.idle();
    expect(seen.sort()).toEqual([`${innerMeeting}:inner`, `${outerMeeting}:outer`].sort());
  });

  it('delivers what was committed but never queued (a crash between the two) at the next sweep', async () => {
    const name = `swept-${suffix()}`;
    const seen: string[] = [];
    // A web-only process records the event and queues it; nothing works its queue.
    const web = await startEvents({ [name]: async () => undefined }, { work: false });
    const meetingId = crypto.randomUUID();
    // The queueing after the commit is what a crash loses: record inside an outer transaction, which leaves it to its caller.
    await database.db.transaction().execute((trx) => web.events.transaction(async (_inner, raise) => raise(updated(meetingId, 'title')), trx));
    const worker = await startEvents({ [name]: async (event) => void seen.push(event.subject.id) });
    await worker.jobs.idle();
    expect(seen).toEqual([]);
    await worker.events.sweep();
    await expect.poll(() => seen, { timeout: 30_000 }).toEqual([meetingId]);
    expect((await eventOperations(database.db, () => new Date()).failed()).filter((d) => d.subscriber === name)).toEqual([]);
  });
});
