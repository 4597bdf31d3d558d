import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { MeetingRef } from '#shared/contracts/insights.ts';
import type { MeetingAccess } from '#shared/contracts/meetings.ts';

/**
 * Who may read a meeting: the one place that decides it. A meeting is private to its owner unless
 * it is shared with one of the owner's teams (meetings.team_id); then the members of that team may
 * read and export it too. Only the owner edits, deletes, shares it with a team or by link.
 *
 * A reader is worked out per request (and per realtime event, at send time) from the teams the
 * person belongs to now, so removing a member or unsharing takes effect with the next request.
 * Every read of a meeting — lists, search, the meeting, its transcript, audio, exports, insights and
 * analytics, the action-item tracker and the decision register — is filtered with `readableBy`;
 * an owner-only read is the same filter with no teams (`ownerOnly`).
 */
export type MeetingReader = {
  userId: string;
  teamIds: readonly string[];
  /** Meetings added before this (ISO) are hidden by the reader's plan (its history length); never deleted. */
  since?: string | undefined;
};

/** A reader who reaches only their own meetings: every edit, share-link and lifecycle step. */
export const ownerOnly = (userId: string): MeetingReader => ({ userId, teamIds: [] });

/**
 * The condition "this reader may read the meeting", on the owner and team columns of the meetings
 * table as the query names it (`meetings` or an alias such as `m`).
 */
export function readableBy(reader: MeetingReader, table = 'meetings'): RawBuilder<SqlBool> {
  const owner = sql.ref(`${table}.owner_id`);
  const team = sql.ref(`${table}.team_id`);
  const access =
    reader.teamIds.length === 0
      ? sql<SqlBool>`${owner} = ${reader.userId}`
      : sql<SqlBool>`(${owner} = ${reader.userId} or ${team} in (${sql.join([...reader.teamIds])}))`;
  if (reader.since === undefined) return access;
  return sql<SqlBool>`(${access} and ${sql.ref(`${table}.created_at`)} >= ${reader.since})`;
}

/** How the reader reaches a meeting they read: as its owner, or through its team; undefined when they may not. */
export function accessOf(meeting: { owner_id: string; team_id: string | null }, reader: MeetingReader): MeetingAccess | undefined {
  if (meeting.owner_id === reader.userId) return 'owner';
  if (meeting.team_id !== null && reader.teamIds.includes(meeting.team_id)) return 'team';
  return undefined;
}

/** A meeting's columns as lists across meetings read them (insights, the tracker, the register). */
export type MeetingRefRow = { id: string; title: string; started_at: string; is_sample: number; owner_id: string };

/**
 * A meeting as lists across meetings name it. A teammate's meeting carries its owner (`sharedBy`,
 * named by the meetings service's `nameSharers` before it is answered): "Shared by <name>".
 */
export function meetingRefOf(m: MeetingRefRow, reader: MeetingReader): MeetingRef {
  const ref: MeetingRef = { id: m.id, title: m.title, startedAt: m.started_at, isSample: m.is_sample === 1 };
  return m.owner_id === reader.userId ? ref : { ...ref, sharedBy: { id: m.owner_id, name: '' } };
}

/** The people a meeting's realtime events go to now: its owner and, while it is shared, its team's members. */
export async function watchersOf(
  meeting: { owner_id: string; team_id: string | null },
  membersOf: (teamId: string) => Promise<readonly string[]>,
): Promise<string[]> {
  if (meeting.team_id === null) return [meeting.owner_id];
  return [...new Set([meeting.owner_id, ...(await membersOf(meeting.team_id))])];
}
