import type { Db } from '#server/db/create-db.ts';

/** Which request a key was used for, and what it answered (once answered). */
export type IdempotencyClaim =
  { outcome: 'claimed' } | { outcome: 'answered'; status: number; response: string } | { outcome: 'in-progress' } | { outcome: 'other-request' };

type KeyRef = { userId: string; endpoint: string; key: string };

/** A key claimed this long ago and never answered was left by a request whose process stopped (requests time out after 2 minutes). */
const ABANDONED_AFTER_MS = 10 * 60_000;

/**
 * Takes a person's Idempotency-Key for a request (its body's digest): claimed when new (or expired,
 * older than `since`), else what the earlier request with that key got. One conditional insert,
 * so two requests racing with the same key cannot both be claimed. Expired keys (everyone's) go first,
 * so the table holds little more than the last day of keyed requests.
 */
export async function claimIdempotencyKey(db: Db, ref: KeyRef, requestHash: string, now: Date, since: Date): Promise<IdempotencyClaim> {
  await db
    .deleteFrom('meeting_idempotency_keys')
    .where((eb) =>
      eb.or([
        eb('created_at', '<', since.toISOString()),
        // Never answered long after any request's time limit: its process died with it, and the key may be used again.
        eb.and([eb('status', 'is', null), eb('created_at', '<', new Date(now.getTime() - ABANDONED_AFTER_MS).toISOString())]),
      ]),
    )
    .execute();
  const inserted = await db
    .insertInto('meeting_idempotency_keys')
    .values({
      user_id: ref.userId,
      endpoint: ref.endpoint,
      key: ref.key,
      request_hash: requestHash,
      status: null,
      response: null,
      created_at: now.toISOString(),
    })
    .onConflict((oc) => oc.columns(['user_id', 'endpoint', 'key']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return { outcome: 'claimed' };
  const row = await db
    .selectFrom('meeting_idempotency_keys')
    .select(['request_hash', 'status', 'response'])
    .where('user_id', '=', ref.userId)
    .where('endpoint', '=', ref.endpoint)
    .where('key', '=', ref.key)
    .executeTakeFirst();
  // Gone between the two statements (the first request failed and let it go): the caller may try again.
  if (!row) return { outcome: 'in-progress' };
  if (row.request_hash !== requestHash) return { outcome: 'other-request' };
  if (row.status === null || row.response === null) return { outcome: 'in-progress' };
  return { outcome: 'answered', status: row.status, response: row.response };
}

/** Keeps the answer the request with this key got. */
export async function answerIdempotencyKey(db: Db, ref: KeyRef, status: number, response: string): Promise<void> {
  await db
    .updateTable('meeting_idempotency_keys')
    .set({ status, response })
    .where('user_id', '=', ref.userId)
    .where('endpoint', '=', ref.endpoint)
    .where('key', '=', ref.key)
    .execute();
}

/** Lets a key go again: its request failed, so a retry with it runs afresh. */
export async function releaseIdempotencyKey(db: Db, ref: KeyRef): Promise<void> {
  await db
    .deleteFrom('meeting_idempotency_keys')
    .where('user_id', '=', ref.userId)
    .where('endpoint', '=', ref.endpoint)
    .where('key', '=', ref.key)
    .where('status', 'is', null)
    .execute();
}
