import type { UpdateNoteItemBody } from '#shared/contracts/notes.ts';
import type {
  ActionItemsQuery,
  ActionItemsResponse,
  Decision,
  DecisionLinkAnswer,
  DecisionsQuery,
  DecisionsResponse,
  MentionResolution,
  TrackedActionItem,
} from '#shared/contracts/tracker.ts';
import type { Db } from '#server/db/create-db.ts';
import { ownerOnly, type MeetingReader } from '../../meetings/meetings.service.ts';
import { meetingClock } from '../due-dates.ts';
import { insertMentions, mentionOf, openItemsBefore, resolveMention, trackedActionItem, trackedActionItems } from './action-items.repository.ts';
import {
  answerLink,
  decisionRegister,
  decisionsOfMeeting,
  insertSuggestedLinks,
  linkOf,
  registeredDecision,
  standingDecisionsBefore,
} from './decisions.repository.ts';
import { findFollowUps, type SpokenSegment } from './follow-up-match.ts';
import { findSupersedes } from './supersede-match.ts';

type TrackerDeps = {
  db: Db;
  now: () => Date;
  /** The IANA time zone of a person's dates: what "today" is for overdue items. */
  timeZoneOf: (userId: string) => Promise<string>;
  /** The notes' own item update (a person's change: it checks the meeting is theirs and marks the item reviewed); undefined when not found. */
  updateItem: (ownerId: string, meetingId: string, itemId: string, body: UpdateNoteItemBody) => Promise<unknown>;
  /** The caller as a reader of meetings (their own and their teams'): what the tracker and the register list. */
  readerOf: (userId: string) => Promise<MeetingReader>;
  /** Names the owners of teammates' meetings in an answer ("Shared by"): the meetings service's. */
  nameSharers: <T>(answer: T) => Promise<T>;
};

/** A meeting whose notes were just stored: what follow-ups and superseding decisions are found from. */
export type StoredNotes = { meetingId: string; ownerId: string; startedAt: string; segments: SpokenSegment[] };

/** A date as the person's calendar shows it (YYYY-MM-DD). */
function localDate(instant: Date, timeZone: string): string {
  const clock = meetingClock(instant.toISOString(), timeZone);
  return (clock?.wallTime ?? instant).toISOString().slice(0, 10);
}

/**
 * The notes across meetings: the action-item tracker with the later moments that talked about an
 * item again ("done or slipped?"), and the decision register with later decisions offered as
 * superseding earlier ones. Part of the notes service. The lists show the meetings the caller may read
 * (their own and their teams'); answers and matches reach the caller's own meetings only.
 */
export function createTrackerService(deps: TrackerDeps) {
  const { db } = deps;
  const todayOf = async (ownerId: string) => localDate(deps.now(), await deps.timeZoneOf(ownerId));

  return {
    actionItems: async (userId: string, query: ActionItemsQuery): Promise<ActionItemsResponse> =>
      deps.nameSharers(await trackedActionItems(db, await deps.readerOf(userId), query, await todayOf(userId))),

    /** "Done or slipped?": done ticks the item done, slipped keeps (or puts) it open; both through the notes' item update. */
    answerMention: async (ownerId: string, itemId: string, mentionId: string, resolution: MentionResolution): Promise<TrackedActionItem | undefined> => {
      const mention = await mentionOf(db, ownerOnly(ownerId), itemId, mentionId);
      if (!mention) return undefined;
      // A dismissed item stays dismissed: the person rejected it, whatever a later meeting said.
      if (resolution === 'done') await deps.updateItem(ownerId, mention.itemMeetingId, itemId, { status: 'done' });
      else if (mention.itemStatus !== 'dismissed') await deps.updateItem(ownerId, mention.itemMeetingId, itemId, { status: 'open' });
      await resolveMention(db, mentionId, resolution);
      return trackedActionItem(db, ownerOnly(ownerId), itemId, await todayOf(ownerId));
    },

    decisions: async (userId: string, query: DecisionsQuery): Promise<DecisionsResponse> =>
      deps.nameSharers(await decisionRegister(db, await deps.readerOf(userId), query)),

    /** Confirms or rejects a suggested (or earlier answered) link; answers the later decision. */
    answerDecisionLink: async (ownerId: string, linkId: string, status: DecisionLinkAnswer): Promise<Decision | undefined> => {
      const link = await linkOf(db, ownerOnly(ownerId), linkId);
      if (!link) return undefined;
      await answerLink(db, { id: linkId, ...link }, status);
      return registeredDecision(db, ownerOnly(ownerId), link.laterId);
    },

    /**
     * After a meeting's notes are stored: the person's open action items from earlier meetings that
     * this one talked about again (a mention each, at the best segment), and its decisions that may
     * supersede earlier ones (a suggested link each).
     */
    notesStored: async ({ meetingId, ownerId, startedAt, segments }: StoredNotes): Promise<void> => {
      const createdAt = deps.now().toISOString();
      const followUps = findFollowUps(await openItemsBefore(db, ownerOnly(ownerId), meetingId, startedAt), segments);
      await insertMentions(db, meetingId, followUps, createdAt);
      const [later, earlier] = await Promise.all([decisionsOfMeeting(db, meetingId), standingDecisionsBefore(db, ownerOnly(ownerId), meetingId, startedAt)]);
      await insertSuggestedLinks(db, findSupersedes(later, earlier), createdAt);
    },
  };
}
