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
  MAX_TITLE_LENGTH,
  MAX_TRANSCRIPT_IMPORT_BYTES,
  RecordingOptionsSchema,
  STORAGE_ALLOWANCE_BYTES,
} from '#shared/contracts/meetings.ts';
import type { Db } from '#server/db/create-db.ts';
import type { BlobStore } from '#server/lib/blob-store.ts';
import { createAudioDownloads, withDownloadKeys, type AudioDownload, type AudioDownloadFormat } from './audio-download.ts';
import { activitySince, meetingInsightsOf } from './meeting-aggregates.repository.ts';
import { parseTranscriptOffThread } from './document-work.ts';
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
  createMeeting,
  deleteMeetings,
  expiredMeetingIds,
  getMeeting,
  listMeetings,
  meetingStats,
  notesSourceOf,
  ownersWithMeetingsBefore,
  ownedMeetingIds,
  ownsMeeting,
  recordingOf,
  renameSpeaker,
  mergeSpeakers,
  assignSegments,
  speakerNamesOf,
  replaceTranscript,
  searchInMeeting,
  setSearchableNotes,
  setSummary,
  updateMeeting,
  updateSegmentText,
  type MeetingRecord,
  type TranscriptInput,
} from './meetings.repository.ts';

export type { MeetingRecord, TranscriptInput } from './meetings.repository.ts';
import type { SearchableNote } from './meeting-search.repository.ts';
export type { ImportProblem } from './import/parse-transcript.ts';

/** Why a transcript file was not imported: too large, or unreadable at a line. */
export type ImportRefusal = { tooLarge: true } | { problem: ImportProblem };

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
  audioKey: string | null;
  options: RecordingOptions;
  /** Capture sources, one per audio channel; empty for one mixed track. */
  audioSources: string[];
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
  blobs: BlobStore;
  /** STORAGE_QUOTA_GB: the recorded audio one account may keep (the dashboard's storage bar measures against it). */
  storageQuotaBytes?: number;
  /** Cancels uploads still carrying a deleted meeting's audio and deletes their files (the recordings feature's store). */
  discardUploads?: (uploadIds: readonly string[]) => Promise<void>;
}) {
  const { db, blobs } = deps;
  const audioDownloads = createAudioDownloads({ blobs });
  const quotaBytes = deps.storageQuotaBytes ?? STORAGE_ALLOWANCE_BYTES;

  /** Deletes meetings with everything they hold: their audio files (downloads in other formats too), and an upload still under way, included. */
  const removeWhere = async (ownerId: string, filter: { id: string } | { samples: true } | { all: true }): Promise<number> => {
    const { ids, audioKeys, uploadIds } = await deleteMeetings(db, ownerId, filter);
    await blobs.remove(audioKeys.flatMap((key) => withDownloadKeys(blobs, key)));
    if (uploadIds.length > 0) await deps.discardUploads?.(uploadIds);
    return ids.length;
  };

  return {
    list: (ownerId: string, query: MeetingListQuery): Promise<MeetingListResponse> => listMeetings(db, ownerId, query),
    get: (ownerId: string, id: string): Promise<MeetingRecord | undefined> => getMeeting(db, ownerId, id),
    exists: (ownerId: string, id: string): Promise<boolean> => ownsMeeting(db, ownerId, id),
    stats: (ownerId: string): Promise<Omit<MeetingStats, 'insights'>> => meetingStats(db, ownerId, quotaBytes),
    /**
     * Room left under the account's storage quota: the quota less the dashboard's "storage used"
     * (the same figure, so what the bar shows and what an upload may take never disagree).
     */
    storageLeft: async (ownerId: string): Promise<{ quotaBytes: number; leftBytes: number }> => {
      const { storageBytes } = await meetingStats(db, ownerId, quotaBytes);
      return { quotaBytes, leftBytes: Math.max(0, quotaBytes - storageBytes) };
    },

    /** A new meeting waiting for its audio (a recording starting, or a file about to be uploaded). */
    create: async (ownerId: string, body: CreateMeetingBody): Promise<MeetingRecord> => {
      const id = await createMeeting(db, {
        ownerId,
        title: body.title ?? '',
        source: body.source ?? 'mic',
        status: 'recording',
        options: body.options ?? {},
        participants: body.participants ?? [],
        ...(body.startedAt ? { startedAt: body.startedAt } : {}),
        ...(body.audioSources ? { audioSources: body.audioSources } : {}),
      });
      const meeting = await getMeeting(db, ownerId, id);
      if (!meeting) throw new Error('A meeting just created could not be read back');
      return meeting;
    },
    /**
     * A meeting from a transcript file (WebVTT, SRT, plain text) with its speakers named from the file:
     * ready at once, without audio, with the default recording options (an import carries none, as an
     * upload from the record page carries the page's). Nothing is stored when the file cannot be read.
     */
    importTranscript: async (ownerId: string, body: ImportTranscriptBody): Promise<{ meeting: MeetingRecord } | ImportRefusal> => {
      if (Buffer.byteLength(body.content, 'utf8') > MAX_TRANSCRIPT_IMPORT_BYTES) return { tooLarge: true };
      // A 5 MB file takes a second to read: off the event loop, so the server answers meanwhile.
      const parsed = await parseTranscriptOffThread(body.fileName, body.content);
      if (!parsed.ok) return { problem: parsed.problem };
      const id = await createImportedMeeting(
        db,
        {
          ownerId,
          title: body.title || body.fileName.replace(/\.[^.]+$/, '').slice(0, MAX_TITLE_LENGTH),
          options: {},
          participants: [],
          durationSeconds: parsed.value.durationSeconds,
          ...(body.startedAt ? { startedAt: body.startedAt } : {}),
        },
        parsed.value.transcript,
      );
      const meeting = await getMeeting(db, ownerId, id);
      if (!meeting) throw new Error('A meeting just imported could not be read back');
      return { meeting };
    },
    update: (ownerId: string, id: string, changes: UpdateMeetingBody) => updateMeeting(db, ownerId, id, changes),
    updateSegment: (ownerId: string, id: string, segmentId: string, text: string) => updateSegmentText(db, ownerId, id, segmentId, text),
    renameSpeaker: (ownerId: string, id: string, speakerId: string, displayName: string) => renameSpeaker(db, ownerId, id, speakerId, displayName),
    mergeSpeakers: (ownerId: string, id: string, speakerId: string, intoSpeakerId: string) => mergeSpeakers(db, ownerId, id, speakerId, intoSpeakerId),
    assignSegments: (ownerId: string, id: string, segmentIds: readonly string[], speakerId: string) => assignSegments(db, ownerId, id, segmentIds, speakerId),
    /** The names the person has given speakers in their meetings, most used first. */
    speakerNames: (ownerId: string) => speakerNamesOf(db, ownerId, 200),
    /** Deletes the caller's meeting; answers how many went (0: not theirs or not there). */
    remove: (ownerId: string, id: string): Promise<number> => removeWhere(ownerId, { id }),
    removeSamples: (ownerId: string): Promise<number> => removeWhere(ownerId, { samples: true }),
    /** Every meeting of the person, samples included, with audio, uploads in progress, notes and share links (Delete All Data, Delete Account). */
    removeAll: (ownerId: string): Promise<number> => removeWhere(ownerId, { all: true }),

    /** Every meeting id of the person, oldest first (Request Data Export). */
    ownedIds: (ownerId: string): Promise<string[]> => ownedMeetingIds(db, ownerId),
    /** The recording's blob of the caller's meeting (downloads, the player). */
    audio: async (ownerId: string, id: string) => {
      const row = await audioOf(db, ownerId, id);
      return row && { title: row.title, key: row.audio_key, mime: row.audio_mime };
    },
    /**
     * The caller's meeting's recording as a download in `format` (converted on the first request,
     * then kept); undefined for another person's or no meeting, key null when it has no audio.
     */
    audioDownload: async (
      ownerId: string,
      id: string,
      format: AudioDownloadFormat,
    ): Promise<{ title: string; file: AudioDownload | null; recordingKey: string | null } | undefined> => {
      const row = await audioOf(db, ownerId, id);
      if (!row) return undefined;
      if (!row.audio_key || !(await blobs.exists(row.audio_key))) return { title: row.title, file: null, recordingKey: row.audio_key };
      return { title: row.title, file: await audioDownloads.prepare(row.audio_key, format), recordingKey: row.audio_key };
    },
    /** The caller's meeting while it is being recorded, for the live transcript; undefined otherwise. */
    recording: async (ownerId: string, id: string): Promise<{ audioSources: string[] } | undefined> => {
      const row = await recordingOf(db, ownerId, id);
      if (!row || row.status !== 'recording') return undefined;
      return { audioSources: parseSources(row.audio_sources) };
    },

    /** One of a new account's sample meetings, ready with its transcript; answers its id, segment ids and transcript revision. */
    createSample: async (ownerId: string, sample: SampleInput) => {
      const id = await createMeeting(db, {
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
      const segmentIds = await replaceTranscript(db, id, sample.transcript);
      const meeting = await getMeeting(db, ownerId, id);
      return { id, segmentIds, transcriptRevision: meeting?.transcriptRevision ?? 0 };
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
    recordingStored: (meetingId: string, audio: StoredAudio) =>
      transition(db, meetingId, 'recordingStored', {
        audio_key: audio.key,
        audio_mime: audio.mime,
        audio_bytes: audio.bytes,
        duration_seconds: audio.durationSeconds,
        failure_reason: null,
      }),
    recordingUnreadable: (meetingId: string, reason: string) => transition(db, meetingId, 'recordingUnreadable', { failure_reason: reason }),
    transcriptionSource: async (meetingId: string): Promise<TranscriptionSource | undefined> => {
      const row = await transcriptionSource(db, meetingId);
      return row && { ownerId: row.owner_id, audioKey: row.audio_key, options: parseOptions(row.options), audioSources: parseSources(row.audio_sources) };
    },
    completeTranscription: (meetingId: string, transcript: TranscriptInput) => completeTranscription(db, meetingId, transcript),
    failTranscription: (meetingId: string, reason: string) => transition(db, meetingId, 'transcriptionFailed', { failure_reason: reason }),
    /** The caller asks for a failed transcription to run again. */
    retryTranscription: async (ownerId: string, meetingId: string): Promise<'retried' | 'not-found' | 'not-failed' | 'no-audio'> => {
      const meeting = await getMeeting(db, ownerId, meetingId);
      if (!meeting) return 'not-found';
      if (meeting.status !== 'failed') return 'not-failed';
      if (!meeting.hasAudio) return 'no-audio';
      return (await transition(db, meetingId, 'transcriptionRetried', { failure_reason: null })) ? 'retried' : 'not-failed';
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
    setSummary: (meetingId: string, summary: string | null) => setSummary(db, meetingId, summary),
    /** The notes feature's action items and decisions of a meeting, as its search should find them (all of them, each time they change). */
    setSearchableNotes: (meetingId: string, notes: SearchableNote[]) => setSearchableNotes(db, meetingId, notes),
    /** Search inside one meeting the caller may read: its matching passages in transcript order; undefined when not theirs. */
    search: (callerId: string, meetingId: string, q: string) => searchInMeeting(db, callerId, meetingId, q),

    insights: (ownerId: string) => meetingInsightsOf(db, ownerId),
    activitySince: (ownerId: string, since: Date) => activitySince(db, ownerId, since),
  };
}

function parseOptions(text: string): RecordingOptions {
  try {
    const parsed = RecordingOptionsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : DEFAULT_RECORDING_OPTIONS;
  } catch {
    return DEFAULT_RECORDING_OPTIONS;
  }
}

/** Capture sources stored with the meeting (one per channel), or none for a single mixed track. */
function parseSources(json: string | null): string[] {
  if (!json) return [];
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}
