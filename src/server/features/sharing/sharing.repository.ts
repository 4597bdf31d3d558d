import crypto from 'node:crypto';
import type { ShareLink, SharedMeeting } from '#shared/contracts/sharing.ts';
import type { Db } from '#server/db/create-db.ts';
import { getMeeting } from '../meetings/meetings.repository.ts';
import { hashShareToken, newShareToken } from './share-token.ts';

/**
 * Share links. Owner-side functions take the caller's id and answer `undefined` for a meeting that
 * is not theirs, exactly as for one that does not exist. The public lookup goes by token only.
 */

/** Enough for any real use; stops a script from piling up links on one meeting. */
export const MAX_ACTIVE_LINKS_PER_MEETING = 50;

async function ownsMeeting(db: Db, ownerId: string, meetingId: string): Promise<boolean> {
  const row = await db.selectFrom('meetings').select('id').where('id', '=', meetingId).where('owner_id', '=', ownerId).executeTakeFirst();
  return row !== undefined;
}

export async function listShareLinks(db: Db, ownerId: string, meetingId: string): Promise<ShareLink[] | undefined> {
  if (!(await ownsMeeting(db, ownerId, meetingId))) return undefined;
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

export type CreateShareResult = { kind: 'created'; link: ShareLink; token: string } | { kind: 'not-found' } | { kind: 'too-many' };

export async function createShareLink(db: Db, ownerId: string, meetingId: string): Promise<CreateShareResult> {
  return db.transaction().execute(async (trx) => {
    if (!(await ownsMeeting(trx, ownerId, meetingId))) return { kind: 'not-found' };
    const active = await trx
      .selectFrom('share_links')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('meeting_id', '=', meetingId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(active?.count ?? 0) >= MAX_ACTIVE_LINKS_PER_MEETING) return { kind: 'too-many' };
    const token = newShareToken();
    const link = { id: crypto.randomUUID(), createdAt: new Date().toISOString() };
    await trx
      .insertInto('share_links')
      .values({ id: link.id, meeting_id: meetingId, owner_id: ownerId, token_hash: hashShareToken(token), created_at: link.createdAt, revoked_at: null })
      .execute();
    return { kind: 'created', link, token };
  });
}

/** Revokes one active link of the caller's meeting; false when there is no such active link. */
export async function revokeShareLink(db: Db, ownerId: string, meetingId: string, shareId: string): Promise<boolean> {
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

/**
 * The meeting behind an active token, reduced to what a reader may see. Read through the owner-
 * scoped getMeeting with the link's owner, so a link can only ever show its creator's meeting.
 */
export async function findSharedMeeting(db: Db, token: string): Promise<SharedMeeting | undefined> {
  const link = await db
    .selectFrom('share_links')
    .select(['meeting_id', 'owner_id'])
    .where('token_hash', '=', hashShareToken(token))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (!link) return undefined;
  const meeting = await getMeeting(db, link.owner_id, link.meeting_id);
  if (!meeting) return undefined;
  return {
    title: meeting.title,
    startedAt: meeting.startedAt,
    durationSeconds: meeting.durationSeconds,
    participants: meeting.participants,
    summary: meeting.summary,
    speakers: meeting.speakers,
    segments: meeting.segments,
    insights: meeting.insights,
  };
}
