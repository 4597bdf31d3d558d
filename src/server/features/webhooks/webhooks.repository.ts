import type { Db } from '#server/db/create-db.ts';
import type { WebhookDeliveriesTable, WebhookEndpointsTable } from './webhooks.table.ts';

export type EndpointRow = WebhookEndpointsTable;
export type DeliveryRow = WebhookDeliveriesTable;

export async function insertEndpoint(db: Db, row: EndpointRow): Promise<void> {
  await db.insertInto('webhook_endpoints').values(row).execute();
}

export async function endpointById(db: Db, id: string): Promise<EndpointRow | undefined> {
  return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A person's own endpoints and those of the given teams. */
export async function endpointsVisibleTo(db: Db, userId: string, teamIds: readonly string[]): Promise<EndpointRow[]> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where((eb) => {
      const mine = eb.and([eb('user_id', '=', userId), eb('team_id', 'is', null)]);
      return teamIds.length === 0 ? mine : eb.or([mine, eb('team_id', 'in', teamIds)]);
    })
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function countEndpoints(db: Db, owner: { userId: string; teamId: string | null }): Promise<number> {
  let query = db.selectFrom('webhook_endpoints').select((eb) => eb.fn.countAll<number | string>().as('n'));
  query = owner.teamId === null ? query.where('user_id', '=', owner.userId).where('team_id', 'is', null) : query.where('team_id', '=', owner.teamId);
  return Number((await query.executeTakeFirst())?.n ?? 0);
}

/** The enabled endpoints an event reaches: its owner's own, and its team's. */
export async function endpointsForEvent(db: Db, ownerId: string | null, teamId: string | null): Promise<EndpointRow[]> {
  if (ownerId === null && teamId === null) return [];
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('enabled', '=', 1)
    .where((eb) => {
      const parts = [];
      if (ownerId !== null) parts.push(eb.and([eb('user_id', '=', ownerId), eb('team_id', 'is', null)]));
      if (teamId !== null) parts.push(eb('team_id', '=', teamId));
      return eb.or(parts);
    })
    .execute();
}

export async function updateEndpoint(db: Db, id: string, patch: Partial<Omit<EndpointRow, 'id' | 'user_id' | 'team_id' | 'created_at'>>): Promise<void> {
  await db.updateTable('webhook_endpoints').set(patch).where('id', '=', id).execute();
}

export async function deleteEndpoint(db: Db, id: string): Promise<void> {
  await db.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
  await db.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
}

/** Endpoints a person added (their own and the team-wide ones), with their deliveries. */
export async function deleteEndpointsOf(db: Db, userId: string): Promise<void> {
  const ids = (await db.selectFrom('webhook_endpoints').select('id').where('user_id', '=', userId).execute()).map((r) => r.id);
  if (ids.length === 0) return;
  await db.deleteFrom('webhook_deliveries').where('endpoint_id', 'in', ids).execute();
  await db.deleteFrom('webhook_endpoints').where('id', 'in', ids).execute();
}

/** A delivery of an event to an endpoint, once: a repeated event (at-least-once delivery) inserts nothing. */
export async function insertDelivery(db: Db, row: DeliveryRow): Promise<boolean> {
  const result = await db
    .insertInto('webhook_deliveries')
    .values(row)
    .onConflict((oc) => oc.columns(['endpoint_id', 'event_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deliveryById(db: Db, id: string): Promise<DeliveryRow | undefined> {
  return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function deliveriesOf(db: Db, endpointId: string, limit: number): Promise<DeliveryRow[]> {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('endpoint_id', '=', endpointId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function updateDelivery(
  db: Db,
  id: string,
  patch: Partial<Omit<DeliveryRow, 'id' | 'endpoint_id' | 'event_id' | 'body' | 'created_at'>>,
): Promise<void> {
  await db.updateTable('webhook_deliveries').set(patch).where('id', '=', id).execute();
}

/** Deliveries waiting whose time has come (new ones a crash left unqueued, retries due). */
export async function dueDeliveries(db: Db, now: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', 'in', ['pending', 'retrying'])
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** Forgets deliveries older than `before` (their bodies hold meeting content). */
export async function pruneDeliveries(db: Db, before: string): Promise<void> {
  await db.deleteFrom('webhook_deliveries').where('created_at', '<', before).where('status', 'in', ['succeeded', 'failed']).execute();
}
