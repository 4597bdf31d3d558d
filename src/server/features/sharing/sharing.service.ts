import type { ShareLink, SharedMeeting } from '#shared/contracts/sharing.ts';
import type { Db } from '#server/db/create-db.ts';
import type { MeetingsService } from '../meetings/meetings.service.ts';
import type { NotesService } from '../notes/notes.service.ts';
import { newOpaqueToken } from '#server/lib/opaque-token.ts';
import { activeLinks, insertLink, linkOfToken, revokeLink } from './sharing.repository.ts';

/** Enough for any real use; stops a script from piling up links on one meeting. */
export const MAX_ACTIVE_LINKS_PER_MEETING = 50;

export type CreateShareResult = { kind: 'created'; link: ShareLink; token: string } | { kind: 'not-found' } | { kind: 'too-many' };

/**
 * Share links. Owner-side functions take the caller's id and answer `undefined` (or not-found) for
 * a meeting that is not theirs, exactly as for one that does not exist. The public lookup goes by
 * token only, and reads the meeting as the link's creator: a link can only ever show its creator's meeting.
 */
export type SharingService = ReturnType<typeof createSharingService>;

export function createSharingService(deps: { db: Db; meetings: MeetingsService; notes: Pick<NotesService, 'ofMeeting'> }) {
  const { db, meetings } = deps;
  return {
    list: async (ownerId: string, meetingId: string): Promise<ShareLink[] | undefined> =>
      (await meetings.exists(ownerId, meetingId)) ? activeLinks(db, ownerId, meetingId) : undefined,
    create: async (ownerId: string, meetingId: string): Promise<CreateShareResult> => {
      if (!(await meetings.exists(ownerId, meetingId))) return { kind: 'not-found' };
      const token = newOpaqueToken();
      const link = await insertLink(db, { ownerId, meetingId, token, limit: MAX_ACTIVE_LINKS_PER_MEETING });
      if (!link) return { kind: 'too-many' };
      await meetings.linkShared(ownerId, meetingId);
      return { kind: 'created', link, token };
    },
    revoke: (ownerId: string, meetingId: string, shareId: string): Promise<boolean> => revokeLink(db, ownerId, meetingId, shareId),
    /** The meeting behind an active token, reduced to what a reader may see. */
    shared: async (token: string): Promise<SharedMeeting | undefined> => {
      const link = await linkOfToken(db, token);
      const meeting = link && (await meetings.get(link.ownerId, link.meetingId));
      if (!meeting) return undefined;
      const { insights, notes, summarySentences } = await deps.notes.ofMeeting(meeting.id, meeting.transcriptRevision, meeting.summary);
      return {
        title: meeting.title,
        startedAt: meeting.startedAt,
        durationSeconds: meeting.durationSeconds,
        participants: meeting.participants,
        summary: meeting.summary,
        summarySentences: summarySentences ?? null,
        speakers: meeting.speakers,
        segments: meeting.segments,
        // What the owner dismissed is not part of the notes a reader sees.
        insights: insights.filter((item) => item.status !== 'dismissed'),
        notes: { status: notes.status },
      };
    },
  };
}
