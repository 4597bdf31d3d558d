import crypto from 'node:crypto';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { z } from 'zod';
import { EVENT_PAYLOADS, EVENT_VERSION, type DomainEvent, type EventSubjectType, type EventType, type NewDomainEvent } from '#shared/contracts/events.ts';
import type { Db } from '#server/db/create-db.ts';
import { inTransaction } from '#server/db/transaction.ts';
import { bestEffort } from '#server/lib/best-effort.ts';
import type { JobHandle, JobQueue } from '#server/jobs/job-queue.ts';
import {
  deadDeliveries,
  deliveryCounts,
  hasPending,
  insertEvents,
  nextPending,
  pendingSubjects,
  pruneEvents,
  recordAttempt,
  reviveDelivery,
  settleDelivery,
  subjectKey,
  type DeadDelivery,
  type PendingDelivery,
} from './events.repository.ts';

export type { DeadDelivery } from './events.repository.ts';

/** Raises an event inside a transaction: it is stored with the change, or not at all. */
export type RaiseEvent = (event: NewDomainEvent) => void;

/** What services are given: transactions that record events with the change they make. */
export type EventRecorder = {
  /**
   * Runs `work` in one transaction (or inside the caller's, when `db` is one); the events it raises
   * are stored in it and queued for delivery once it commits.
   */
  transaction: <T>(work: (trx: Db, raise: RaiseEvent) => Promise<T>, db?: Db) => Promise<T>;
  /** Whether `subscriber` has an event about the subject still on its way (a state its handler will write is coming). */
  pending: (subscriber: string, subject: { type: EventSubjectType; id: string }) => Promise<boolean>;
};

/** A subscriber's handler: idempotent (a delivery may run again after a crash), keyed by `event.id`. */
export type EventHandler = (
  event: DomainEvent,
  /** `final`: a failure of this try leaves the delivery dead (a state the person sees may say so). */
  context: { signal: AbortSignal; attempt: number; final: boolean },
) => Promise<void>;

/** A handler failure that no retry can mend (the delivery is dead at once, for an operator to look at). */
export class PermanentEventFailure extends Error {}

export type DomainEvents = EventRecorder & {
  /**
   * A feature subscribes (before start) under its own name to the event types it handles. Each
   * subscriber gets each event once it is committed, at least once, one subject's events in order.
   */
  subscribe: (subscriber: string, types: readonly EventType[], handler: EventHandler) => void;
  /** Queues delivery of everything left pending (a crash between a commit and its queueing); workers run it at start and every minute. */
  sweep: () => Promise<void>;
  start: () => void;
  stop: () => void;
  /** For the operator: deliveries whose handler kept failing, and putting one back in line. */
  failed: (limit?: number) => Promise<DeadDelivery[]>;
  retry: (deliveryId: string) => Promise<boolean>;
  counts: () => Promise<{ pending: number; dead: number }>;
  /** Deletes a person's events that nothing waits on any more (Delete All Data, Delete Account). */
  forgetOwner: (ownerId: string) => Promise<void>;
};

type DomainEventsOptions = {
  db: Db;
  jobs: JobQueue;
  log: Logger;
  now: () => Date;
  /** Tries per delivery before it is dead, and the first retry's wait (doubling after). */
  maxAttempts?: number;
  retryDelayMs?: number;
  /** How long delivered events are kept (integrations may read them back). */
  keepMs?: number;
};

const DeliveryPayload = z.object({ subject: z.string().max(300) });
type DeliveryPayload = z.infer<typeof DeliveryPayload>;

const SWEEP_INTERVAL_MS = 60_000;
const DEFAULT_KEEP_MS = 7 * 24 * 60 * 60 * 1000;
/** A subscriber's name is part of its queue's name. */
const SUBSCRIBER_NAME = /^[a-z][a-z0-9-]{0,40}$/;

/**
 * Domain events as a transactional outbox: a service's change and the events it raises commit
 * together (domain_events, with an event_deliveries row per subscriber), and each subscriber works
 * its deliveries off its own job queue (`events-<subscriber>`), one job per subject at a time, so a
 * subject's events reach it in order. A run delivers one event; a failed one is retried with the
 * queue's backoff and, once its tries are spent, left dead for an operator (`npm run events`).
 */
export function createDomainEvents(options: DomainEventsOptions): DomainEvents {
  const { db, jobs, log } = options;
  const subscribers = new Map<string, { types: ReadonlySet<EventType>; queue: JobHandle<DeliveryPayload> }>();
  const nowIso = () => options.now().toISOString();
  const operations = eventOperations(db, options.now);
  let timer: NodeJS.Timeout | undefined;

  const subscribersOf = (type: EventType) => [...subscribers].filter(([, s]) => s.types.has(type)).map(([name]) => name);

  const enqueue = async (deliveries: readonly { subscriber: string; subject: string }[]) => {
    const unique = new Map(deliveries.map((d) => [`${d.subscriber}|${d.subject}`, d]));
    for (const { subscriber, subject } of unique.values()) await subscribers.get(subscriber)?.queue.enqueue({ subject });
  };

  const parseEvent = (pending: PendingDelivery): DomainEvent => {
    const type = pending.event.type as EventType;
    const schema = EVENT_PAYLOADS[type];
    if (!schema) throw new PermanentEventFailure(`Unknown event type ${pending.event.type}`);
    const payload = schema.safeParse(JSON.parse(pending.event.payload));
    if (!payload.success) throw new PermanentEventFailure(`The ${type} event's payload does not match version ${pending.event.version}`);
    return {
      id: pending.event.id,
      type,
      version: pending.event.version,
      occurredAt: pending.event.occurredAt,
      actorId: pending.event.actorId,
      ownerId: pending.event.ownerId,
      teamId: pending.event.teamId,
      subject: { type: pending.event.subjectType as EventSubjectType, id: pending.event.subjectId },
      payload: payload.data,
    } as DomainEvent;
  };

  const subscribe: DomainEvents['subscribe'] = (subscriber, types, handler) => {
    if (!SUBSCRIBER_NAME.test(subscriber)) throw new Error(`A subscriber's name is lowercase words with dashes: ${subscriber}`);
    if (subscribers.has(subscriber)) throw new Error(`${subscriber} already subscribes to domain events`);
    /** The delivery a run is working on, for onSettled to mark dead when the job fails for good. */
    const current = new Map<string, string>();
    const maxAttempts = options.maxAttempts ?? 8;
    const queue = jobs.define<DeliveryPayload>({
      name: `events-${subscriber}`,
      label: `${subscriber} event delivery`,
      payload: DeliveryPayload,
      keyOf: (p) => p.subject,
      stages: [],
      concurrency: 4,
      maxAttempts,
      retryDelayMs: options.retryDelayMs ?? 5_000,
      classify: (error) => ({
        retryable: !(error instanceof PermanentEventFailure),
        message: error instanceof Error ? error.message : String(error),
      }),
      run: async ({ subject }, ctx) => {
        const pending = await nextPending(db, subscriber, subject);
        if (!pending) return;
        current.set(subject, pending.deliveryId);
        await recordAttempt(db, pending.deliveryId, nowIso());
        await handler(parseEvent(pending), { signal: ctx.signal, attempt: ctx.attempt, final: ctx.attempt >= maxAttempts });
        await settleDelivery(db, pending.deliveryId, { status: 'done' }, nowIso());
      },
      onSettled: async ({ subject }, outcome) => {
        const deliveryId = current.get(subject);
        if (outcome.status === 'retrying') {
          if (deliveryId) await settleDelivery(db, deliveryId, { status: 'pending', error: outcome.error }, nowIso());
          return;
        }
        current.delete(subject);
        if (outcome.status === 'failed') {
          // A dead worker's job (its run never reached this process) names no delivery: the next one pending is the one that kept dying.
          const dead = deliveryId ?? (await nextPending(db, subscriber, subject))?.deliveryId;
          if (dead) await settleDelivery(db, dead, { status: 'dead', error: outcome.error }, nowIso());
          log.error({ subscriber, subject, error: outcome.error }, 'an event delivery failed for good: `npm run events -- failed` lists it');
        }
        // One event a run: the subject's next, if any, goes on in a new job (whose tries start afresh).
        if (await nextPending(db, subscriber, subject)) await queue.enqueue({ subject });
      },
    });
    subscribers.set(subscriber, { types: new Set(types), queue });
  };

  /**
   * The deliveries recorded in each open outermost transaction, its own and those of the
   * transactions that join it (a service calling another's inside its change): queued together
   * once it commits.
   */
  const committing = new WeakMap<Db, { subscriber: string; subject: string }[]>();

  const transaction: EventRecorder['transaction'] = async (work, outer = db) => {
    const raised: NewDomainEvent[] = [];
    const deliveries: { subscriber: string; subject: string }[] = [];
    const result = await inTransaction(outer, async (trx) => {
      if (!outer.isTransaction) committing.set(trx, deliveries);
      // Joining an outer transaction of this recorder: its commit queues these too.
      const collected = committing.get(trx) ?? deliveries;
      const value = await work(trx, (event) => void raised.push(event));
      if (raised.length > 0) {
        const occurredAt = nowIso();
        const inserted = await insertEvents(
          trx,
          raised.map((event) => ({
            id: crypto.randomUUID(),
            type: event.type,
            version: EVENT_VERSION,
            occurredAt,
            actorId: event.actorId,
            ownerId: event.ownerId,
            teamId: event.teamId,
            subjectType: event.subject.type,
            subjectId: event.subject.id,
            payload: event.payload,
            subscribers: subscribersOf(event.type),
          })),
          occurredAt,
        );
        collected.push(...inserted);
      }
      return value;
    });
    // Inside an outer transaction nothing is committed yet: the outermost call of this recorder
    // queues what joined it once it commits, and the sweep covers a crash before then (or an outer
    // transaction of someone else's).
    if (!outer.isTransaction && deliveries.length > 0) {
      await bestEffort('event-enqueue', enqueue(deliveries), log);
    }
    return result;
  };

  const sweep = async () => {
    await enqueue(await pendingSubjects(db));
    await pruneEvents(db, { before: new Date(options.now().getTime() - (options.keepMs ?? DEFAULT_KEEP_MS)).toISOString() });
  };

  return {
    transaction,
    pending: (subscriber, subject) => hasPending(db, subscriber, subjectKey(subject.type, subject.id)),
    subscribe,
    sweep,
    start: () => {
      timer = setInterval(() => void bestEffort('event-sweep', sweep, log), SWEEP_INTERVAL_MS);
      timer.unref();
    },
    stop: () => clearInterval(timer),
    failed: operations.failed,
    retry: async (deliveryId) => {
      const revived = await operations.revive(deliveryId);
      if (!revived) return false;
      await subscribers.get(revived.subscriber)?.queue.enqueue({ subject: revived.subject });
      return true;
    },
    counts: operations.counts,
    forgetOwner: async (ownerId) => void (await pruneEvents(db, { ownerId })),
  };
}

/**
 * What an operator does with deliveries, without a job queue (`npm run events`): a revived
 * delivery is queued by the workers' next sweep, within a minute.
 */
export function eventOperations(db: Db, now: () => Date) {
  return {
    failed: (limit = 100) => deadDeliveries(db, limit),
    revive: (deliveryId: string) => reviveDelivery(db, deliveryId, now().toISOString()),
    counts: () => deliveryCounts(db),
  };
}
