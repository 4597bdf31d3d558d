import type { Db } from '#server/db/create-db.ts';
import type { NotificationsTable } from './notifications.table.ts';

export type NotificationRow = NotificationsTable;

/** Stores a notification unless the person already has one with its dedupe key; answers whether it was stored. */
export async function insertNotification(db: Db, row: NotificationRow): Promise<boolean> {
  const result = await db
    .insertInto('notifications')
    .values(row)
    .onConflict((oc) => oc.columns(['user_id', 'dedupe_key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** The person's newest notifications. */
export async function notificationsOf(db: Db, userId: string, limit: number): Promise<NotificationRow[]> {
  return db.selectFrom('notifications').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

export async function unreadCountOf(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Marks read the person's notifications among `ids` (all of them when `ids` is 'all'); another's ids match nothing. */
export async function markRead(db: Db, userId: string, ids: readonly string[] | 'all', at: string): Promise<void> {
  let query = db.updateTable('notifications').set({ read_at: at }).where('user_id', '=', userId).where('read_at', 'is', null);
  if (ids !== 'all') query = query.where('id', 'in', [...ids]);
  await query.execute();
}

/** Claims the person's digest of a day: true for the first claim, false when it was claimed already. */
export async function claimDigestDay(db: Db, userId: string, day: string, at: string): Promise<boolean> {
  const result = await db
    .insertInto('notification_digests')
    .values({ user_id: userId, day, sent_at: at })
    .onConflict((oc) => oc.columns(['user_id', 'day']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Gives a day's claim back (its email could not be sent: the next run tries again). */
export async function releaseDigestDay(db: Db, userId: string, day: string): Promise<void> {
  await db.deleteFrom('notification_digests').where('user_id', '=', userId).where('day', '=', day).execute();
}

/** When the person's latest digest went out. */
export async function lastDigestAt(db: Db, userId: string): Promise<string | undefined> {
  const row = await db.selectFrom('notification_digests').select('sent_at').where('user_id', '=', userId).orderBy('sent_at', 'desc').executeTakeFirst();
  return row?.sent_at;
}

/** The key the person's unsubscribe links are signed with now, created on first use. */
export async function unsubscribeKeyOf(db: Db, userId: string, fresh: () => string, at: string): Promise<string> {
  await db
    .insertInto('notification_unsubscribe_keys')
    .values({ user_id: userId, key_id: fresh(), created_at: at })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  const row = await db.selectFrom('notification_unsubscribe_keys').select('key_id').where('user_id', '=', userId).executeTakeFirstOrThrow();
  return row.key_id;
}

export async function currentUnsubscribeKey(db: Db, userId: string): Promise<string | undefined> {
  return (await db.selectFrom('notification_unsubscribe_keys').select('key_id').where('user_id', '=', userId).executeTakeFirst())?.key_id;
}

/** Delete All Data / Delete Account: the person's notifications and those about their meetings, digest days and unsubscribe key. */
export async function deleteAllOf(db: Db, userId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('notifications').where('user_id', '=', userId).execute();
    await trx.deleteFrom('notifications').where('about_user_id', '=', userId).execute();
    await trx.deleteFrom('notification_digests').where('user_id', '=', userId).execute();
    await trx.deleteFrom('notification_unsubscribe_keys').where('user_id', '=', userId).execute();
  });
}
