import crypto from 'node:crypto';
import type { Db } from '#server/db/create-db.ts';

/** An event row to store, with the subscribers that get it. */
export type EventInsert = {
  id: string;
  type: string;
  version: number;
  occurredAt: string;
  actorId: string | null;
  ownerId: string | null;
  teamId: string | null;
  subjectType: string;
  subjectId: string;
  payload: unknown;
  subscribers: readonly string[];
};

/** A delivery waiting to run, with its event. */
export type PendingDelivery = {
  deliveryId: string;
  attempts: number;
  event: {
    id: string;
    type: string;
    version: number;
    occurredAt: string;
    actorId: string | null;
    ownerId: string | null;
    teamId: string | null;
    subjectType: string;
    subjectId: string;
    payload: string;
  };
};

export const subjectKey = (type: string, id: string) => `${type}:${id}`;

/** Stores the events and their deliveries (inside the caller's transaction); answers the deliveries made. */
export async function insertEvents(trx: Db, events: readonly EventInsert[], now: string): Promise<{ subscriber: string; subject: string }[]> {
  const deliveries: { subscriber: string; subject: string }[] = [];
  for (const event of events) {
    const inserted = await trx
      .insertInto('domain_events')
      .values({
        id: event.id,
        type: event.type,
        version: event.version,
        occurred_at: event.occurredAt,
        actor_id: event.actorId,
        owner_id: event.ownerId,
        team_id: event.teamId,
        subject_type: event.subjectType,
        subject_id: event.subjectId,
        payload: JSON.stringify(event.payload),
      })
      .returning('seq')
      .executeTakeFirstOrThrow();
    if (event.subscribers.length === 0) continue;
    const subject = subjectKey(event.subjectType, event.subjectId);
    await trx
      .insertInto('event_deliveries')
      .values(
        event.subscribers.map((subscriber) => ({
          id: crypto.randomUUID(),
          event_seq: Number(inserted.seq),
          subscriber,
          subject,
          status: 'pending' as const,
          attempts: 0,
          last_error: null,
          updated_at: now,
        })),
      )
      .execute();
    for (const subscriber of event.subscribers) deliveries.push({ subscriber, subject });
  }
  return deliveries;
}

/** The subject's next delivery for the subscriber, in recording order. */
export async function nextPending(db: Db, subscriber: string, subject: string): Promise<PendingDelivery | undefined> {
  const row = await db
    .selectFrom('event_deliveries as d')
    .innerJoin('domain_events as e', 'e.seq', 'd.event_seq')
    .select([
      'd.id as deliveryId',
      'd.attempts',
      'e.id',
      'e.type',
      'e.version',
      'e.occurred_at',
      'e.actor_id',
      'e.owner_id',
      'e.team_id',
      'e.subject_type',
      'e.subject_id',
      'e.payload',
    ])
    .where('d.subscriber', '=', subscriber)
    .where('d.subject', '=', subject)
    .where('d.status', '=', 'pending')
    .orderBy('d.event_seq')
    .limit(1)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    deliveryId: row.deliveryId,
    attempts: row.attempts,
    event: {
      id: row.id,
      type: row.type,
      version: row.version,
      occurredAt: row.occurred_at,
      actorId: row.actor_id,
      ownerId: row.owner_id,
      teamId: row.team_id,
      subjectType: row.subject_type,
      subjectId: row.subject_id,
      payload: row.payload,
    },
  };
}

/** Whether the subscriber has an event of the subject still to handle (pending, not dead). */
export async function hasPending(db: Db, subscriber: string, subject: string): Promise<boolean> {
  const row = await db
    .selectFrom('event_deliveries')
    .select('id')
    .where('subscriber', '=', subscriber)
    .where('subject', '=', subject)
    .where('status', '=', 'pending')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Counts a try of a delivery before its handler runs (an operator sees how often it was tried). */
export async function recordAttempt(db: Db, deliveryId: string, now: string): Promise<void> {
  await db
    .updateTable('event_deliveries')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), updated_at: now }))
    .where('id', '=', deliveryId)
    .execute();
}

export async function settleDelivery(
  db: Db,
  deliveryId: string,
  outcome: { status: 'done' } | { status: 'pending' | 'dead'; error: string },
  now: string,
): Promise<void> {
  await db
    .updateTable('event_deliveries')
    .set({ status: outcome.status, last_error: outcome.status === 'done' ? null : outcome.error, updated_at: now })
    .where('id', '=', deliveryId)
    .where('status', '=', 'pending')
    .execute();
}

/** Every (subscriber, subject) with a delivery waiting, optionally only those waiting since before `before`. */
export async function pendingSubjects(db: Db, before?: string): Promise<{ subscriber: string; subject: string }[]> {
  let query = db.selectFrom('event_deliveries').select(['subscriber', 'subject']).distinct().where('status', '=', 'pending');
  if (before) query = query.where('updated_at', '<', before);
  return query.execute();
}

export type DeadDelivery = {
  id: string;
  subscriber: string;
  eventId: string;
  type: string;
  subject: string;
  occurredAt: string;
  attempts: number;
  error: string | null;
  failedAt: string;
};

/** Deliveries whose handler kept failing, newest first. */
export async function deadDeliveries(db: Db, limit: number): Promise<DeadDelivery[]> {
  const rows = await db
    .selectFrom('event_deliveries as d')
    .innerJoin('domain_events as e', 'e.seq', 'd.event_seq')
    .select(['d.id', 'd.subscriber', 'e.id as eventId', 'e.type', 'd.subject', 'e.occurred_at', 'd.attempts', 'd.last_error', 'd.updated_at'])
    .where('d.status', '=', 'dead')
    .orderBy('d.updated_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    subscriber: r.subscriber,
    eventId: r.eventId,
    type: r.type,
    subject: r.subject,
    occurredAt: r.occurred_at,
    attempts: r.attempts,
    error: r.last_error,
    failedAt: r.updated_at,
  }));
}

/** Puts a dead delivery back in line; answers its subscriber and subject, or nothing when no dead delivery has that id. */
export async function reviveDelivery(db: Db, deliveryId: string, now: string): Promise<{ subscriber: string; subject: string } | undefined> {
  const result = await db
    .updateTable('event_deliveries')
    .set({ status: 'pending', attempts: 0, updated_at: now })
    .where('id', '=', deliveryId)
    .where('status', '=', 'dead')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return undefined;
  return db.selectFrom('event_deliveries').select(['subscriber', 'subject']).where('id', '=', deliveryId).executeTakeFirst();
}

/** Delivery counts by status (the status page, the operator). */
export async function deliveryCounts(db: Db): Promise<{ pending: number; dead: number }> {
  const rows = await db
    .selectFrom('event_deliveries')
    .select(['status', (eb) => eb.fn.countAll<string | number>().as('n')])
    .where('status', 'in', ['pending', 'dead'])
    .groupBy('status')
    .execute();
  const count = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
  return { pending: count('pending'), dead: count('dead') };
}

/** Deletes events older than `before`, or of one owner, that nothing waits on (every delivery done, or none). */
export async function pruneEvents(db: Db, which: { before: string } | { ownerId: string }): Promise<number> {
  const result = await db
    .deleteFrom('domain_events')
    .where((eb) => ('before' in which ? eb('occurred_at', '<', which.before) : eb('owner_id', '=', which.ownerId)))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('event_deliveries')
            .select('event_deliveries.id')
            .whereRef('event_deliveries.event_seq', '=', 'domain_events.seq')
            .where('event_deliveries.status', '!=', 'done'),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
