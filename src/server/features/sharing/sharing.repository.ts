import crypto from 'node:crypto';
import type { ShareLink } from '#shared/contracts/sharing.ts';
import type { Db } from '#server/db/create-db.ts';
import { hashOpaqueToken } from '#server/lib/opaque-token.ts';

/** The share_links table: active links of a meeting, created and revoked by the meeting's owner. */

export async function activeLinks(db: Db, ownerId: string, meetingId: string): Promise<ShareLink[]> {
  const rows = await db
    .selectFrom('share_links')
    .select(['id', 'created_at'])
    .where('meeting_id', '=', meetingId)
    .where('owner_id', '=', ownerId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, createdAt: r.created_at }));
}

/** Inserts a link unless the meeting already has `limit` active ones (checked in the same transaction). */
export async function insertLink(db: Db, input: { ownerId: string; meetingId: string; token: string; limit: number }): Promise<ShareLink | undefined> {
  return db.transaction().execute(async (trx) => {
    const active = await trx
      .selectFrom('share_links')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('meeting_id', '=', input.meetingId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(active?.count ?? 0) >= input.limit) return undefined;
    const link = { id: crypto.randomUUID(), createdAt: new Date().toISOString() };
    await trx
      .insertInto('share_links')
      .values({
        id: link.id,
        meeting_id: input.meetingId,
        owner_id: input.ownerId,
        token_hash: hashOpaqueToken(input.token),
        created_at: link.createdAt,
        revoked_at: null,
      })
      .execute();
    return link;
  });
}

/** Revokes one active link of the caller's meeting; false when there is no such active link. */
export async function revokeLink(db: Db, ownerId: string, meetingId: string, shareId: string): Promise<boolean> {
  const result = await db
    .updateTable('share_links')
    .set({ revoked_at: new Date().toISOString() })
    .where('id', '=', shareId)
    .where('meeting_id', '=', meetingId)
    .where('owner_id', '=', ownerId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The meeting and owner behind an active token. */
export async function linkOfToken(db: Db, token: string): Promise<{ meetingId: string; ownerId: string } | undefined> {
  const link = await db
    .selectFrom('share_links')
    .select(['meeting_id', 'owner_id'])
    .where('token_hash', '=', hashOpaqueToken(token))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return link && { meetingId: link.meeting_id, ownerId: link.owner_id };
}
