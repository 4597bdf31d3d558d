import { AppError, notFound } from '#server/lib/app-error.ts';
import crypto from 'node:crypto';
import type {
  CreateMeetingBody,
  ImportTranscriptBody,
  MeetingListQuery,
  MeetingListResponse,
  MeetingStats,
  RecordingOptions,
  UpdateMeetingBody,
} from '#shared/contracts/meetings.ts';
import {
  DEFAULT_RECORDING_OPTIONS,
  IDEMPOTENCY_KEY_HOURS,
  MAX_PARTICIPANTS,
  MAX_TITLE_LENGTH,
  MAX_TRANSCRIPT_IMPORT_BYTES,
  RecordingOptionsSchema,
  STORAGE_ALLOWANCE_BYTES,
} from '#shared/contracts/meetings.ts';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { EventPayload } from '#shared/contracts/events.ts';
import type { RealtimeEvent } from '#shared/contracts/realtime.ts';
import type { TeamActivityKind } from '#shared/contracts/teams.ts';
import type { Db } from '#server/db/create-db.ts';
import { inTransaction } from '#server/db/transaction.ts';
import type { EventRecorder } from '#server/events/domain-events.ts';
import { failedBestEffort } from '#server/lib/best-effort.ts';
import type { BlobStore } from '#server/lib/blob-store.ts';
import { createAudioDownloads, withDownloadKeys, type AudioDownload, type AudioDownloadFormat } from './audio-download.ts';
import type { RealtimeHub } from '#server/lib/realtime/realtime-hub.ts';
import { accessOf, ownerOnly, watchersOf, type MeetingReader } from './meeting-access.ts';
import { createReadsInFlight } from './reads-in-flight.ts';
import { readableMeetingsView, readableTurnsView, type MeetingViews } from './meeting-views.repository.ts';
import { readyMeetings, readyTranscripts } from './transcript-reads.repository.ts';
import { parseTranscriptOffThread } from './document-work.ts';
import { answerIdempotencyKey, claimIdempotencyKey, releaseIdempotencyKey, type IdempotencyClaim } from './idempotency.repository.ts';
import type { ImportProblem } from './import/parse-transcript.ts';
import {
  abandonRecordings,
  attachUpload,
  audioKeysAmong,
  completeTranscription,
  createImportedMeeting,
  detachUpload,
  processingMeetings,
  transcriptionSource,
  transition,
  uploadsInProgress,
} from './meeting-lifecycle.repository.ts';
import {
  audioOf,
  countAddedBefore,
  createMeeting,
  deleteMeetings,
  expiredMeetingIds,
  getMeeting,
  listMeetings,
  meetingStats,
  notesSourceOf,
  transcriptHeaderOf,
  ownershipOf,
  ownersWithMeetingsBefore,
  ownedMeetingIds,
  ownsMeeting,
  peopleRecording,
  recordingOf,
  renameSpeaker,
  mergeSpeakers,
  assignSegments,
  addSpeaker,
  removeSpeakerWithoutLines,
  joinSegments,
  splitSegment,
  speakerNamesOf,
  speakerIdsOf,
  replaceTranscript,
  searchInMeeting,
  setSearchableNotes,
  setMeetingTeam,
  unshareOwnersMeetings,
  setSummary,
  sharedWithTeam,
  storeProviderSentiment,
  teamMemberCounts,
  updateMeeting,
  updateSegmentText,
  undoCorrection,
  countAddedSince,
  type MeetingRecord,
  type TranscriptInput,
} from './meetings.repository.ts';

export type { MeetingRecord, TranscriptInput } from './meetings.repository.ts';
import { rankSegments, type SearchableNote } from './meeting-search.repository.ts';
export type { MeetingReader } from './meeting-access.ts';
export type { ReadyMeeting } from './transcript-reads.repository.ts';
/** The access rule, for the aggregates of other features that join the meetings table read-only (notes' tracker). */
export { meetingRefOf, ownerOnly, readableBy, type MeetingRefRow } from './meeting-access.ts';
export type { MeetingViews } from './meeting-views.repository.ts';
export { SENTIMENT_THRESHOLD } from './sentiment.ts';
/** A meeting as a file (downloads; the data export's Markdown copies) and a title as a file name. */
export { exportMeeting } from './meeting-export.ts';
export { safeFileStem } from './content-disposition.ts';

/**
 * What the meetings feature needs of the teams feature (given in deps.ts): the teams a person
 * belongs to now (who reads a shared meeting), a team's members now (who hears its events), and the
 * team's activity feed.
 */
export type TeamsPort = {
  teamIdsOf: (userId: string) => Promise<string[]>;
  memberIdsOf: (teamId: string) => Promise<string[]>;
  recordActivity: (activity: { teamId: string; actorId: string; kind: TeamActivityKind; meetingId: string; meetingTitle: string }) => Promise<void>;
  /** Which meetings a team shares changed (unshared, moved to another team): its open /team and history pages read again. */
  teamChanged?: (teamId: string) => void;
  /** The person started or stopped recording: their teams' /team pages show "In a meeting", or no longer. */
  availabilityChanged?: (userId: string) => void;
};

/**
 * The billing feature's usage ledger (given in deps.ts), written in the transaction that accepts a
 * meeting's audio for transcription or imports its transcript: the hours are counted with it, and
 * deleting the meeting later gives none back.
 */
export type UsagePort = {
  /** Refuses (PLAN_LIMIT) once the owner's transcription hours for the month are used up: the check a new recording, upload or import passes too. */
  assertCanTranscribe: (userId: string) => Promise<void>;
  counted: (trx: Db, entry: { meetingId: string; userId: string; source: string; seconds: number }) => Promise<void>;
  /** The transcription failed for good: its hours count for nothing unless it is retried. */
  givenBack: (trx: Db, meetingId: string) => Promise<void>;
};

/** Why a meeting was not shared with a team: not the caller's meeting, or not a team of theirs. */
export type ShareWithTeamResult = 'shared' | 'not-found' | 'not-a-member';
export type { ImportProblem } from './import/parse-transcript.ts';

/** Why a transcript file was not imported: too large, over the storage quota (of this many bytes), or unreadable at a line. */
export type ImportRefusal = { tooLarge: true } | { overQuota: number } | { problem: ImportProblem } | { notAMember: true };

/** A sample meeting as the samples feature describes it. */
export type SampleInput = {
  title: string;
  startedAt: string;
  durationSeconds: number;
  participants: string[];
  summary: string;
  transcript: TranscriptInput;
};

/** A stored recording's facts, as the upload hands them over. */
export type StoredAudio = { key: string; mime: string; bytes: number; durationSeconds: number };

/** What a transcription job reads of its meeting. */
export type TranscriptionSource = {
  ownerId: string;
  /** The team it is shared with (its vocabulary is used too), or null. */
  teamId: string | null;
  audioKey: string | null;
  options: RecordingOptions;
  /** Capture sources, one per audio channel; empty for one mixed track. */
  audioSources: string[];
  /** How many participants the meeting lists (0 when none are known). */
  participants: number;
};

/**
 * The meetings feature's public API: the only way other features (uploads, transcription, sharing,
 * live, settings, insights) read or change a meeting, and the only writer of its lifecycle
 * (meeting-lifecycle.ts). Reads and edits take the caller's id: another person's meeting is
 * indistinguishable from one that does not exist.
 */
export type MeetingsService = ReturnType<typeof createMeetingsService>;

export function createMeetingsService(deps: {
  db: Db;
  /** Where searches run (the database handle's `reads`: off the server's thread on SQLite); `db` without it. */
  reads?: Db;
  blobs: BlobStore;
  /** STORAGE_QUOTA_GB: the recorded audio and imported transcripts one account may keep (the dashboard's storage bar measures against it). */
  storageQuotaBytes?: number;
  /** Cancels uploads still carrying a deleted meeting's audio and deletes their files (the recordings feature's store). */
  discardUploads?: (uploadIds: readonly string[]) => Promise<void>;
  /** Teams a person belongs to and a team's members (the teams feature); without it every meeting is its owner's alone. */
  teams?: TeamsPort;
  /** People's display names (auth's), for "Shared by <name>". */
  namesOf?: (userIds: readonly string[]) => Promise<Map<string, string>>;
  /** Meeting events (progress, notes) go to the meeting's readers through the hub. */
  realtime?: Pick<RealtimeHub, 'publish'>;
  /** An event a meeting's team was not sent is logged and counted (a named best effort). */
  log: Logger;
  /** Changes and the domain events they raise commit together (other features subscribe to them). */
  events: EventRecorder;
  /** Meetings added before this (ISO) are hidden from the person by their plan's history (the billing feature); undefined: none. */
  historySince?: (userId: string) => Promise<string | undefined>;
  /** Transcription hours used (the billing feature); without it nothing is counted. */
  usage?: UsagePort;
  /** A meeting's custom vocabulary (the vocabulary feature): its near-misses are corrected in an imported transcript; none without it. */
  vocabularyOf?: (meeting: { ownerId: string; teamId: string | null }) => Promise<string[]>;
}) {
  const { db, blobs, events } = deps;
  const reads = deps.reads ?? db;
  const audioDownloads = createAudioDownloads({ blobs });
  const quotaBytes = deps.storageQuotaBytes ?? STORAGE_ALLOWANCE_BYTES;
  const teams = deps.teams;

  /** The caller as a reader of meetings: their own, and those shared with the teams they belong to now, within their plan's history. */
  const readerOf = async (userId: string): Promise<MeetingReader> => {
    const [teamIds, since] = await Promise.all([teams ? teams.teamIdsOf(userId) : [], deps.historySince?.(userId)]);
    return since === undefined ? { userId, teamIds } : { userId, teamIds, since };
  };
  /** Downloads and streams being sent: ended as soon as their reader may no longer read the meeting. */
  const readsInFlight = createReadsInFlight(async (userId, id) => {
    const meeting = await ownershipOf(db, id);
    return meeting !== undefined && accessOf(meeting, await readerOf(userId)) !== undefined;
  });
  /** Fills in the owners' names of meetings read (the repository knows their ids only). */
  const withOwnerNames = async <M extends { owner?: { id: string; name: string } }>(items: M[]): Promise<M[]> => {
    const ids = [...new Set(items.flatMap((m) => (m.owner ? [m.owner.id] : [])))];
    if (ids.length === 0 || !deps.namesOf) return items;
    const names = await deps.namesOf(ids);
    return items.map((m) => (m.owner ? { ...m, owner: { id: m.owner.id, name: names.get(m.owner.id) ?? '' } } : m));
  };
  /**
   * Names the owners of teammates' meetings anywhere in an answer of lists across meetings (each
   * MeetingRef's `sharedBy`, which the repositories fill with the owner's id alone): one lookup of
   * names for the whole answer, whatever its shape (topics, sentiment, the tracker, the register).
   */
  const nameSharers = async <T>(answer: T): Promise<T> => {
    const sharers: { id: string; name: string }[] = [];
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(visit);
      if (value === null || typeof value !== 'object') return;
      for (const [key, field] of Object.entries(value)) {
        if (key === 'sharedBy' && field !== null && typeof field === 'object' && 'id' in field && 'name' in field)
          sharers.push(field as { id: string; name: string });
        else visit(field);
      }
    };
    visit(answer);
    if (sharers.length === 0 || !deps.namesOf) return answer;
    const names = await deps.namesOf([...new Set(sharers.map((s) => s.id))]);
    for (const sharer of sharers) sharer.name = names.get(sharer.id) ?? '';
    return answer;
  };
  const isMemberOf = async (userId: string, teamId: string) => (teams ? (await teams.teamIdsOf(userId)).includes(teamId) : false);
  const recordTeamActivity = async (meetingId: string, actorId: string, kind: TeamActivityKind) => {
    const meeting = await ownershipOf(db, meetingId);
    if (teams && meeting?.team_id) await teams.recordActivity({ teamId: meeting.team_id, actorId, kind, meetingId, meetingTitle: meeting.title });
  };

  /** Its owner is no longer recording it: their teams' /team pages stop saying "In a meeting". */
  const recordingEnded = async (meetingId: string) => {
    if (!teams?.availabilityChanged) return;
    const meeting = await ownershipOf(db, meetingId);
    if (meeting) teams.availabilityChanged(meeting.owner_id);
  };

  // Events to a meeting's team members, in the order they were raised (one chain per meeting): who
  // they go to is decided when each is sent, so a removed member or an unshared meeting hears no more.
  const teamDeliveries = new Map<string, Promise<void>>();
  const announceToTeam = (meetingId: string, ownerId: string, event: RealtimeEvent) => {
    if (!teams || !deps.realtime) return;
    const realtime = deps.realtime;
    const previous = teamDeliveries.get(meetingId) ?? Promise.resolve();
    const next = previous
      .then(async () => {
        const meeting = await ownershipOf(db, meetingId);
        if (!meeting) return;
        for (const userId of await watchersOf(meeting, teams.memberIdsOf)) if (userId !== ownerId) realtime.publish(userId, event);
      })
      // A lookup that failed (the database closing at shutdown) drops this one event for the team; the
      // chain must go on for the next, and the meeting as read on the next request is right regardless.
      .catch((error: unknown) => failedBestEffort('meeting-team-realtime', error, deps.log, { meetingId }))
      .finally(() => {
        if (teamDeliveries.get(meetingId) === next) teamDeliveries.delete(meetingId);
      });
    teamDeliveries.set(meetingId, next);
  };

  /** Deletes meetings with everything they hold: their audio files (downloads in other formats too), and an upload still under way, included. */
  const removeWhere = async (ownerId: string, filter: { id: string } | { samples: true } | { all: true }): Promise<number> => {
    const { ids, audioKeys, uploadIds } = await events.transaction(async (trx, raise) => {
      const deleted = await deleteMeetings(trx, ownerId, filter);
      deleted.ids.forEach((id, i) =>
        raise({ type: 'meeting.deleted', actorId: ownerId, ownerId, teamId: deleted.teams[i] ?? null, subject: { type: 'meeting', id }, payload: {} }),
      );
      return deleted;
    });
    await Promise.all(ids.map((id) => readsInFlight.meetingChanged(id)));
    await blobs.remove(audioKeys.flatMap((key) => withDownloadKeys(blobs, key)));
    if (uploadIds.length > 0) await deps.discardUploads?.(uploadIds);
    return ids.length;
  };

  /** An edit of the owner's transcript, and its `transcript.edited` event when it changed something. */
  const transcriptEdit = (
    ownerId: string,
    id: string,
    change: EventPayload<'transcript.edited'>['change'],
    edit: (trx: Db) => Promise<boolean>,
    details: Omit<EventPayload<'transcript.edited'>, 'change'> = {},
    /** The caller's transaction to join (the edit commits with the caller's change), else its own. */
    within: Db = db,
  ): Promise<boolean> =>
    events.transaction(async (trx, raise) => {
      const edited = await edit(trx);
      if (edited) {
        const meeting = await ownershipOf(trx, id);
        raise({
          type: 'transcript.edited',
          actorId: ownerId,
          ownerId,
          teamId: meeting?.team_id ?? null,
          subject: { type: 'meeting', id },
          payload: { change, ...details },
        });
      }
      return edited;
    }, within);

  return {
    /**
     * Idempotency-Keys of the requests that create meetings (per person, for IDEMPOTENCY_KEY_HOURS):
     * `claim` takes a key for a request body, or says what the key's first request got.
     */
    idempotency: {
      claim: (ref: IdempotencyKeyRef, body: unknown): Promise<IdempotencyClaim> => {
        const now = new Date();
        return claimIdempotencyKey(db, ref, digestOf(body), now, new Date(now.getTime() - IDEMPOTENCY_KEY_HOURS * 3_600_000));
      },
      answer: (ref: IdempotencyKeyRef, status: number, response: unknown) => answerIdempotencyKey(db, ref, status, JSON.stringify(response)),
      release: (ref: IdempotencyKeyRef) => releaseIdempotencyKey(db, ref),
    },
    /** The meetings the caller may read (their own and their teams'), with search and filters. */
    list: async (userId: string, query: MeetingListQuery): Promise<MeetingListResponse> => {
      const page = await listMeetings(db, await readerOf(userId), query, reads);
      return { ...page, items: await withOwnerNames(page.items) };
    },
    /** A meeting the caller may read: their own, or one shared with a team they belong to now. */
    read: async (userId: string, id: string): Promise<MeetingRecord | undefined> => {
      const meeting = await getMeeting(db, await readerOf(userId), id);
      return meeting && (await withOwnerNames([meeting]))[0];
    },
    /** The caller's own meeting (what its owner alone may change, regenerate or share by link). */
    get: async (ownerId: string, id: string): Promise<MeetingRecord | undefined> => {
      const meeting = await getMeeting(db, ownerOnly(ownerId), id);
      return meeting && (await withOwnerNames([meeting]))[0];
    },
    exists: (ownerId: string, id: string): Promise<boolean> => ownsMeeting(db, ownerId, id),
    /** Whose the meeting is (its recording is stored as theirs), whoever asks; undefined when there is no such meeting. */
    ownerOf: async (id: string): Promise<string | undefined> => (await ownershipOf(db, id))?.owner_id,
    stats: async (ownerId: string): Promise<Omit<MeetingStats, 'insights' | 'samplesSettingUp'>> => {
      const [{ transcriptBytes, ...stats }, stored] = await Promise.all([meetingStats(db, ownerId), blobs.usage(ownerId)]);
      const storageBytes = stored + transcriptBytes;
      return { ...stats, storageBytes, storagePercent: Math.min(100, Math.round((storageBytes / quotaBytes) * 1000) / 10) };
    },
    /** How many of the owner's own meetings (samples aside) were added since `since` (the billing feature's "Meetings added this month"). */
    countAddedSince: (ownerId: string, since: Date) => countAddedSince(db, ownerId, since),
    /** How many of the owner's meetings were added before `before`: what a plan's history hides. */
    countAddedBefore: (ownerId: string, before: Date) => countAddedBefore(db, ownerId, before),
    /** Imported transcript files' bytes: the storage quota counts them beside the blob store's (uploads take them off their room). */
    importedTextBytes: async (ownerId: string): Promise<number> => (await meetingStats(db, ownerId)).transcriptBytes,
    /**
     * A new meeting waiting for its audio (a recording starting, or a file about to be uploaded, or
     * fetched from another service); `alongside` writes the caller's record of it in the same transaction.
     */
    create: async (
      ownerId: string,
      body: CreateMeetingBody,
      options: { alongside?: (trx: Db, meetingId: string) => Promise<void> } = {},
    ): Promise<MeetingRecord | 'not-a-member'> => {
      if (body.teamId && !(await isMemberOf(ownerId, body.teamId))) return 'not-a-member';
      const teamId = body.teamId ?? null;
      const title = body.title ?? '';
      const source = body.source ?? 'mic';
      const id = await events.transaction(async (trx, raise) => {
        const created = await createMeeting(trx, {
          teamId,
          ownerId,
          title,
          source,
          status: 'recording',
          options: body.options ?? {},
          participants: body.participants ?? [],
          ...(body.startedAt ? { startedAt: body.startedAt } : {}),
          ...(body.audioSources ? { audioSources: body.audioSources } : {}),
        });
        raise({ type: 'meeting.created', actorId: ownerId, ownerId, teamId, subject: { type: 'meeting', id: created }, payload: { title, source } });
        await options.alongside?.(trx, created);
        return created;
      });
      const meeting = await getMeeting(db, ownerOnly(ownerId), id);
      if (!meeting) throw new Error('A meeting just created could not be read back');
      teams?.availabilityChanged?.(ownerId);
      return meeting;
    },
    /**
     * A meeting from a transcript file (WebVTT, SRT, plain text) with its speakers named from the file:
     * ready at once, without audio, with the default recording options (an import carries none, as an
     * upload from the record page carries the page's). Nothing is stored when the file cannot be read.
     * `participants` name who attended (a synced Teams meeting's attendees); `alongside` writes the
     * caller's own record of the import in the same transaction (so both are kept or neither).
     */
    importTranscript: async (
      ownerId: string,
      body: ImportTranscriptBody,
      options: { participants?: readonly string[]; alongside?: (trx: Db, meetingId: string) => Promise<void> } = {},
    ): Promise<{ meeting: MeetingRecord } | ImportRefusal> => {
      if (body.teamId && !(await isMemberOf(ownerId, body.teamId))) return { notAMember: true };
      const bytes = Buffer.byteLength(body.content, 'utf8');
      if (bytes > MAX_TRANSCRIPT_IMPORT_BYTES) return { tooLarge: true };
      // The file's bytes count in the storage quota, as a recording's do.
      const [{ transcriptBytes }, stored] = await Promise.all([meetingStats(db, ownerId), blobs.usage(ownerId)]);
      if (stored + transcriptBytes + bytes > quotaBytes) return { overQuota: quotaBytes };
      // The owner's and the team's vocabulary, corrected as a transcription's are (before the
      // transcript.ready event, so the notes, Ask and emails read the corrected lines).
      const vocabulary = (await deps.vocabularyOf?.({ ownerId, teamId: body.teamId ?? null })) ?? [];
      // A 5 MB file takes a second to read: off the event loop, so the server answers meanwhile.
      const parsed = await parseTranscriptOffThread(body.fileName, body.content, vocabulary);
      if (!parsed.ok) return { problem: parsed.problem };
      const title = body.title || body.fileName.replace(/\.[^.]+$/, '').slice(0, MAX_TITLE_LENGTH);
      const teamId = body.teamId ?? null;
      const id = await events.transaction(async (trx, raise) => {
        const imported = await createImportedMeeting(
          trx,
          {
            ownerId,
            title,
            options: {},
            participants: (options.participants ?? []).slice(0, MAX_PARTICIPANTS),
            teamId,
            durationSeconds: parsed.value.durationSeconds,
            transcriptBytes: bytes,
            ...(body.startedAt ? { startedAt: body.startedAt } : {}),
          },
          parsed.value.transcript,
        );
        await deps.usage?.counted(trx, { meetingId: imported, userId: ownerId, source: 'import', seconds: parsed.value.durationSeconds });
        raise({
          type: 'transcript.ready',
          actorId: ownerId,
          ownerId,
          teamId,
          subject: { type: 'meeting', id: imported },
          payload: { origin: 'import', title },
        });
        await options.alongside?.(trx, imported);
        return imported;
      });
      const meeting = await getMeeting(db, ownerOnly(ownerId), id);
      if (!meeting) throw new Error('A meeting just imported could not be read back');
      return { meeting };
    },
    update: (ownerId: string, id: string, changes: Omit<UpdateMeetingBody, 'teamId'>) =>
      events.transaction(async (trx, raise) => {
        const updated = await updateMeeting(trx, ownerId, id, changes);
        const meeting = updated ? await ownershipOf(trx, id) : undefined;
        if (meeting) {
          const fields = Object.entries(changes).flatMap(([field, value]) => (value === undefined ? [] : [field]));
          raise({ type: 'meeting.updated', actorId: ownerId, ownerId, teamId: meeting.team_id, subject: { type: 'meeting', id }, payload: { fields } });
        }
        return updated;
      }),
    /**
     * Shares the owner's meeting with one of their teams (its members read and export it from now
     * on), or makes it private again (null): the next request of a member answers 404.
     */
    shareWithTeam: async (ownerId: string, id: string, teamId: string | null): Promise<ShareWithTeamResult> => {
      if (teamId !== null && !(await isMemberOf(ownerId, teamId))) {
        return (await ownsMeeting(db, ownerId, id)) ? 'not-a-member' : 'not-found';
      }
      const changed = await events.transaction(async (trx, raise) => {
        const result = await setMeetingTeam(trx, ownerId, id, teamId);
        if (result && teamId !== result.previousTeamId) {
          raise({
            type: 'meeting.shared',
            actorId: ownerId,
            ownerId,
            teamId,
            subject: { type: 'meeting', id },
            payload: { teamId, previousTeamId: result.previousTeamId, title: result.title },
          });
        }
        return result;
      });
      if (!changed) return 'not-found';
      // The team it left loses it from its members' lists now (the one it joined hears of it through its activity),
      // and its members' downloads of it stop.
      if (changed.previousTeamId !== null && changed.previousTeamId !== teamId) {
        await readsInFlight.meetingChanged(id);
        teams?.teamChanged?.(changed.previousTeamId);
      }
      return 'shared';
    },
    /**
     * Its owner left the team or was removed from it (the teams feature's `team.member_removed`): the
     * meetings they shared with it become private again, so the rest of the team reads, exports,
     * searches and asks them no more, and downloads of them under way stop. Done once per event;
     * nothing changes when the owner is back in the team by then (what they shared since is theirs to decide).
     */
    ownerLeftTeam: async (ownerId: string, teamId: string, actorId: string | null): Promise<number> => {
      if (await isMemberOf(ownerId, teamId)) return 0;
      const unshared = await events.transaction(async (trx, raise) => {
        const rows = await unshareOwnersMeetings(trx, ownerId, teamId);
        for (const row of rows) {
          raise({
            type: 'meeting.shared',
            actorId,
            ownerId,
            teamId: null,
            subject: { type: 'meeting', id: row.id },
            payload: { teamId: null, previousTeamId: teamId, title: row.title },
          });
        }
        return rows;
      });
      for (const row of unshared) await readsInFlight.meetingChanged(row.id);
      if (unshared.length > 0) teams?.teamChanged?.(teamId);
      return unshared.length;
    },
    /**
     * A download or stream of the meeting starts (register it before checking access): it is ended
     * with `stop` if its reader loses the meeting meanwhile. Call the function returned when it ends.
     */
    readStarted: readsInFlight.start,
    /** These people left a team (removed, or the team deleted): their downloads of meetings they may no longer read stop. */
    readersLeft: (userIds: readonly string[]) => readsInFlight.readersLeft(userIds),
    /** Downloads and streams being sent now (tests). */
    readsInFlight: readsInFlight.size,
    /** A reader downloaded the meeting's transcript or notes: the team's activity says so, when it is shared. */
    exported: (userId: string, id: string) => recordTeamActivity(id, userId, 'transcript_downloaded'),
    /** Its owner made a public link to the meeting's notes and insights: the team's activity says so, when it is shared. */
    linkShared: (ownerId: string, id: string) => recordTeamActivity(id, ownerId, 'insights_shared'),
    /**
     * A meeting's event for everyone who may read it: its owner at once (in the order raised, as the
     * job raises them), the members of its team as they are when it is sent.
     */
    announce: (meetingId: string, ownerId: string, event: RealtimeEvent): void => {
      deps.realtime?.publish(ownerId, event);
      announceToTeam(meetingId, ownerId, event);
    },
    /** /team's cards: each member's meetings shared with the team and those they attended. */
    teamMemberCounts: (teamId: string, members: readonly { userId: string; name: string }[]) => teamMemberCounts(db, teamId, members),
    /** Of these meetings, those shared with the team now (its activity links only to what members may open). */
    sharedWithTeam: (teamId: string, ids: readonly string[]) => sharedWithTeam(db, teamId, ids),
    /** Of these people, who is recording a meeting now (/team: "In a meeting"). */
    peopleRecording: (userIds: readonly string[]) => peopleRecording(db, userIds),
    updateSegment: (ownerId: string, id: string, segmentId: string, text: string) =>
      transcriptEdit(ownerId, id, 'text', (trx) => updateSegmentText(trx, ownerId, id, segmentId, text)),
    /**
     * `within`: the caller's transaction, for a rename that must commit with the caller's own change
     * (voice profiles: "this speaker is me" with the consent it records).
     */
    renameSpeaker: (ownerId: string, id: string, speakerId: string, displayName: string, within?: Db) =>
      transcriptEdit(ownerId, id, 'speaker_renamed', (trx) => renameSpeaker(trx, ownerId, id, speakerId, displayName), {}, within),
    mergeSpeakers: (ownerId: string, id: string, speakerId: string, intoSpeakerId: string) =>
      transcriptEdit(ownerId, id, 'speakers_merged', (trx) => mergeSpeakers(trx, ownerId, id, speakerId, intoSpeakerId), {
        merged: { speakerId, intoSpeakerId },
      }),
    /** Lines given to another speaker of the meeting, or (`'new'`) to a new one made for them. */
    assignSegments: (ownerId: string, id: string, segmentIds: readonly string[], speakerId: string) =>
      transcriptEdit(ownerId, id, 'segments_assigned', async (trx) => {
        const to = speakerId === 'new' ? await addSpeaker(trx, ownerId, id) : speakerId;
        if (to === undefined) return false;
        if (await assignSegments(trx, ownerId, id, segmentIds, to)) return true;
        // Nothing moved: the new speaker is not kept.
        if (speakerId === 'new') throw notFound('Speaker or transcript line');
        return false;
      }),
    /**
     * A move undone as one edit: each line back to its own speaker, all or nothing; the speaker the
     * move made (`removeSpeakerId`) goes once no line is left to it. False when the meeting is not the caller's.
     */
    restoreSegmentSpeakers: (ownerId: string, id: string, lines: readonly { segmentId: string; speakerId: string }[], removeSpeakerId?: string) =>
      transcriptEdit(ownerId, id, 'segments_assigned', async (trx) => {
        if ((await ownershipOf(trx, id))?.owner_id !== ownerId) return false;
        const bySpeaker = new Map<string, string[]>();
        for (const line of lines) bySpeaker.set(line.speakerId, [...(bySpeaker.get(line.speakerId) ?? []), line.segmentId]);
        // Thrown, not answered: lines given back before the one that fails are rolled back with it.
        for (const [speakerId, segmentIds] of bySpeaker) {
          if (!(await assignSegments(trx, ownerId, id, segmentIds, speakerId))) throw notFound('Speaker or transcript line');
        }
        if (removeSpeakerId !== undefined) await removeSpeakerWithoutLines(trx, ownerId, id, removeSpeakerId);
        return true;
      }),
    /** One line cut in two between words; the undo is joinSegments. */
    splitSegment: (ownerId: string, id: string, segmentId: string, at: number) =>
      transcriptEdit(ownerId, id, 'segment_split', async (trx) => {
        const outcome = await splitSegment(trx, ownerId, id, segmentId, at);
        if (outcome === 'invalid') throw new AppError('VALIDATION_FAILED', 'A line is split between two words, with words on either side.');
        return outcome === 'done';
      }),
    /** A vocabulary correction undone: what was heard goes back in the line, a text edit like any other. */
    undoCorrection: (ownerId: string, id: string, correctionId: string) =>
      transcriptEdit(ownerId, id, 'text', async (trx) => {
        const outcome = await undoCorrection(trx, ownerId, id, correctionId);
        if (outcome === 'changed') throw new AppError('CONFLICT', 'The line was edited since: change it by hand instead.');
        return outcome === 'done';
      }),
    joinSegments: (ownerId: string, id: string, segmentId: string, nextSegmentId: string) =>
      transcriptEdit(ownerId, id, 'segments_joined', (trx) => joinSegments(trx, ownerId, id, segmentId, nextSegmentId)),
    /** The names the person has given speakers in their meetings, most used first. */
    speakerNames: (ownerId: string) => speakerNamesOf(db, ownerId, 200),
    /** Deletes the caller's meeting; answers how many went (0: not theirs or not there). */
    remove: (ownerId: string, id: string): Promise<number> => removeWhere(ownerId, { id }),
    removeSamples: (ownerId: string): Promise<number> => removeWhere(ownerId, { samples: true }),
    /** Every meeting of the person, samples included, with audio, uploads in progress, notes and share links (Delete All Data, Delete Account). */
    removeAll: (ownerId: string): Promise<number> => removeWhere(ownerId, { all: true }),

    /** Every meeting id of the person, oldest first (Request Data Export). */
    ownedIds: (ownerId: string): Promise<string[]> => ownedMeetingIds(db, ownerId),
    /** The recording's blob of a meeting the caller may read (downloads, the player). */
    audio: async (userId: string, id: string) => {
      const row = await audioOf(db, await readerOf(userId), id);
      return row && { title: row.title, key: row.audio_key, mime: row.audio_mime };
    },
    /**
     * The caller's meeting's recording as a download in `format` (converted on the first request,
     * then kept), of a meeting the caller may read; undefined for any other or no meeting, key null when it has no audio.
     */
    audioDownload: async (
      userId: string,
      id: string,
      format: AudioDownloadFormat,
    ): Promise<{ title: string; file: AudioDownload | null; recordingKey: string | null } | undefined> => {
      const row = await audioOf(db, await readerOf(userId), id);
      if (!row) return undefined;
      if (!row.audio_key || !(await blobs.exists(row.audio_key))) return { title: row.title, file: null, recordingKey: row.audio_key };
      return { title: row.title, file: await audioDownloads.prepare(row.audio_key, row.owner_id, format), recordingKey: row.audio_key };
    },
    /** The caller's meeting while it is being recorded, for the live transcript; undefined otherwise. */
    recording: async (ownerId: string, id: string): Promise<{ audioSources: string[]; teamId: string | null } | undefined> => {
      const row = await recordingOf(db, ownerId, id);
      if (!row || row.status !== 'recording') return undefined;
      return { audioSources: parseSources(row.audio_sources), teamId: row.team_id };
    },

    /**
     * One of a new account's sample meetings, ready with its transcript, in one transaction, under
     * `id` when given: one there already (its setting up ran again) is left as it is, `alreadyThere`.
     * `before` runs first in that transaction (the samples feature's check that it is still wanted);
     * what it throws rolls the meeting back. Answers its id, segment ids and transcript revision.
     */
    createSample: async (ownerId: string, sample: SampleInput, id: string = crypto.randomUUID(), before?: (trx: Db) => Promise<void>) => {
      if (await ownsMeeting(db, ownerId, id)) return { id, segmentIds: [], transcriptRevision: 0, alreadyThere: true };
      const segmentIds = await inTransaction(db, async (trx) => {
        await before?.(trx);
        await createMeeting(trx, {
          id,
          ownerId,
          title: sample.title,
          source: 'sample',
          status: 'ready',
          options: {},
          participants: sample.participants,
          startedAt: sample.startedAt,
          durationSeconds: sample.durationSeconds,
          summary: sample.summary,
          isSample: true,
        });
        return replaceTranscript(trx, id, sample.transcript);
      });
      const meeting = await getMeeting(db, ownerOnly(ownerId), id);
      return { id, segmentIds, transcriptRevision: meeting?.transcriptRevision ?? 0, alreadyThere: false };
    },

    // The lifecycle: each answers whether the meeting was in a status the step may start from.
    /** Names the upload carrying the meeting's audio; `replacing`: the meeting's current upload, which the caller has discarded. */
    attachUpload: (ownerId: string, meetingId: string, uploadId: string, replacing: string | null = null) =>
      attachUpload(db, ownerId, meetingId, uploadId, replacing),
    detachUpload: (uploadId: string) => detachUpload(db, uploadId),
    /** The upload carrying a meeting's audio expired unfinished: the meeting is abandoned (failed, with the reason). */
    uploadExpired: async (uploadId: string): Promise<boolean> => (await abandonRecordings(db, { uploadId })) > 0,
    /**
     * Meetings still recording that began before `createdBefore` and wait on no upload under way
     * (nothing ever arrived, or their upload's files are gone): abandoned; answers how many.
     */
    abandonIdleRecordings: (createdBefore: Date, liveUploadIds: ReadonlySet<string>): Promise<number> =>
      abandonRecordings(db, { createdBefore, liveUploadIds }),
    /** Uploads meetings still wait on (the start-up sweep checks that their files exist). */
    uploadsInProgress: () => uploadsInProgress(db),
    /** Which of these blob keys are some meeting's recording (the rest are orphans). */
    audioKeysAmong: (keys: readonly string[]) => audioKeysAmong(db, keys),
    recordingStored: async (meetingId: string, audio: StoredAudio) => {
      const moved = await events.transaction(async (trx, raise) => {
        const done = await transition(trx, meetingId, 'recordingStored', {
          audio_key: audio.key,
          audio_mime: audio.mime,
          audio_bytes: audio.bytes,
          duration_seconds: audio.durationSeconds,
          failure_reason: null,
        });
        const meeting = done ? await ownershipOf(trx, meetingId) : undefined;
        if (meeting) {
          // Accepted for transcription: its hours count from now, whatever becomes of the meeting.
          await deps.usage?.counted(trx, { meetingId, userId: meeting.owner_id, source: meeting.source, seconds: audio.durationSeconds });
          raise({
            type: 'recording.stored',
            actorId: meeting.owner_id,
            ownerId: meeting.owner_id,
            teamId: meeting.team_id,
            subject: { type: 'meeting', id: meetingId },
            payload: { bytes: audio.bytes, durationSeconds: audio.durationSeconds },
          });
        }
        return done;
      });
      if (moved) await recordingEnded(meetingId);
      return moved;
    },
    recordingUnreadable: async (meetingId: string, reason: string) => {
      const moved = await transition(db, meetingId, 'recordingUnreadable', { failure_reason: reason });
      if (moved) await recordingEnded(meetingId);
      return moved;
    },
    transcriptionSource: async (meetingId: string): Promise<TranscriptionSource | undefined> => {
      const row = await transcriptionSource(db, meetingId);
      return (
        row && {
          ownerId: row.owner_id,
          teamId: row.team_id,
          audioKey: row.audio_key,
          options: parseOptions(row.options),
          audioSources: parseSources(row.audio_sources),
          participants: row.participants,
        }
      );
    },
    /**
     * Stores the transcript and makes the meeting ready, with its `transcript.ready` event.
     * `alongside` writes what another feature keeps of the new transcript in the same transaction,
     * given the stored speakers' ids in the order of `transcript.speakers` (voice profiles' questions).
     */
    completeTranscription: (
      meetingId: string,
      transcript: TranscriptInput,
      alongside?: (trx: Db, speakerIds: readonly string[]) => Promise<void>,
    ): Promise<boolean> =>
      events.transaction(async (trx, raise) => {
        const completed = await completeTranscription(trx, meetingId, transcript);
        const meeting = completed ? await ownershipOf(trx, meetingId) : undefined;
        if (meeting && alongside) await alongside(trx, await speakerIdsOf(trx, meetingId));
        if (meeting) {
          raise({
            type: 'transcript.ready',
            actorId: null,
            ownerId: meeting.owner_id,
            teamId: meeting.team_id,
            subject: { type: 'meeting', id: meetingId },
            payload: { origin: 'transcription', title: meeting.title },
          });
        }
        return completed;
      }),
    /** The transcription failed for good: the meeting says why, and its hours are given back. */
    failTranscription: (meetingId: string, reason: string) =>
      inTransaction(db, async (trx) => {
        const failed = await transition(trx, meetingId, 'transcriptionFailed', { failure_reason: reason });
        if (failed) await deps.usage?.givenBack(trx, meetingId);
        return failed;
      }),
    /** The caller asks for a failed transcription to run again. */
    retryTranscription: async (ownerId: string, meetingId: string): Promise<'retried' | 'not-found' | 'not-failed' | 'no-audio'> => {
      const meeting = await getMeeting(db, ownerOnly(ownerId), meetingId);
      if (!meeting) return 'not-found';
      if (meeting.status !== 'failed') return 'not-failed';
      if (!meeting.hasAudio) return 'no-audio';
      // Its hours were given back when it failed: transcribing it again needs them, as a new upload would.
      await deps.usage?.assertCanTranscribe(ownerId);
      const retried = await inTransaction(db, async (trx) => {
        const moved = await transition(trx, meetingId, 'transcriptionRetried', { failure_reason: null });
        // Accepted again: the hours given back when it failed count again.
        if (moved) await deps.usage?.counted(trx, { meetingId, userId: ownerId, source: meeting.source, seconds: meeting.durationSeconds });
        return moved;
      });
      return retried ? 'retried' : 'not-failed';
    },
    /** Meetings that should have a transcription under way (a crash may have lost their job). */
    processing: () => processingMeetings(db),

    /** Settings › Privacy "Auto-delete recordings": people who may have meetings older than `before`. */
    ownersWithMeetingsBefore: (before: Date) => ownersWithMeetingsBefore(db, before),
    /** Deletes a person's meetings that came in before `before` (never samples, never mid-transcription). */
    removeOlderThan: async (ownerId: string, before: Date): Promise<number> => {
      let deleted = 0;
      for (const id of await expiredMeetingIds(db, ownerId, before)) deleted += await removeWhere(ownerId, { id });
      return deleted;
    },

    /** What the notes feature writes a meeting's notes from: its transcript, speakers, options and date. */
    notesSource: (meetingId: string) => notesSourceOf(db, meetingId),
    /** The same without speakers and transcript: owner, team, title, date, options, status, revision. */
    transcriptHeader: (meetingId: string) => transcriptHeaderOf(db, meetingId),
    setSummary: (meetingId: string, summary: string | null) => setSummary(db, meetingId, summary),
    /** The emotion provider's scores of a meeting's lines, where the option is on and the lines unchanged; the ids stored. */
    storeProviderSentiment: (meetingId: string, scores: { segmentId: string; text: string; score: number }[]) => storeProviderSentiment(db, meetingId, scores),
    /** The notes feature's action items and decisions of a meeting, as its search should find them (all of them, each time they change). */
    setSearchableNotes: (meetingId: string, notes: SearchableNote[]) => setSearchableNotes(db, meetingId, notes),
    /** Search inside one meeting the caller may read: its matching passages in transcript order; undefined when not theirs. */
    search: async (userId: string, meetingId: string, q: string) => searchInMeeting(db, await readerOf(userId), meetingId, q, reads),

    /** The meetings and transcript turns the caller may read (their own and their teams'), as queries to aggregate over. */
    views: async (userId: string): Promise<MeetingViews> => {
      const reader = await readerOf(userId);
      return { reader, meetings: readableMeetingsView(db, reader), turns: readableTurnsView(db, reader) };
    },
    /** The caller as a reader (other features' aggregates filter the meetings table with readableBy). */
    readerOf,
    nameSharers,
    /**
     * Reads across the meetings `reader` may read, for features that keep their own view of the
     * transcripts: segments ranked by the search index's relevance, the ready meetings with their
     * transcript revisions (a view built from an older revision is stale), and their transcripts.
     */
    rankSegments: (reader: MeetingReader, words: string[], options: { meetingId?: string | undefined; limit: number }) =>
      rankSegments(reads, reader, words, options),
    readyMeetings: (reader: MeetingReader, meetingId?: string) => readyMeetings(db, reader, meetingId),
    readyTranscripts: (reader: MeetingReader, meetingIds: string[]) => readyTranscripts(db, reader, meetingIds),
  };
}

/** A person's Idempotency-Key on one of the create endpoints. */
export type IdempotencyKeyRef = { userId: string; endpoint: 'create' | 'import'; key: string };
export type { IdempotencyClaim } from './idempotency.repository.ts';

/** SHA-256 of a request body as JSON with its keys sorted: the same request, however its keys were ordered. */
function digestOf(body: unknown): string {
  const sorted = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sorted)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value)
              .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
              .map(([k, v]) => [k, sorted(v)]),
          )
        : value;
  return crypto
    .createHash('sha256')
    .update(JSON.stringify(sorted(body) ?? null))
    .digest('hex');
}

function parseOptions(text: string): RecordingOptions {
  try {
    const parsed = RecordingOptionsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : DEFAULT_RECORDING_OPTIONS;
  } catch {
    return DEFAULT_RECORDING_OPTIONS; // unreadable stored options read as the defaults: the recording itself is intact
  }
}

/** Capture sources stored with the meeting (one per channel), or none for a single mixed track. */
function parseSources(json: string | null): string[] {
  if (!json) return [];
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return []; // unreadable sources read as one mixed track, which the audio is in any case
  }
}
