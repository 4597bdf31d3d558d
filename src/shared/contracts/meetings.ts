import { z } from 'zod/mini';
import { defineEndpoint } from './endpoint.ts';
import { InsightSchema, NotesStateSchema, SummarySentencesSchema } from './notes.ts';
import { progressDetailShape, ProgressFractionSchema, TranscriptionStageSchema } from './job-progress.ts';
import { FILE_FORMAT_VALUES } from './settings.ts';

/** The meetings API (/api/v1/meetings): shapes shared by the server's routes and the web app. */

export const MEETING_STATUSES = ['recording', 'processing', 'ready', 'failed'] as const;
export const MeetingStatusSchema = z.enum(MEETING_STATUSES);
export type MeetingStatus = z.infer<typeof MeetingStatusSchema>;

export const MeetingSourceSchema = z.enum(['mic', 'upload', 'import', 'sample']);
export type MeetingSource = z.infer<typeof MeetingSourceSchema>;

/** The recording options of spec §2 /record with their defaults (spec §9). */
export const RecordingOptionsSchema = z.object({
  speakerDetection: z._default(z.boolean(), true),
  emotionalAnalysis: z._default(z.boolean(), true),
  actionItems: z._default(z.boolean(), true),
  summary: z._default(z.boolean(), true),
  noiseReduction: z._default(z.boolean(), true),
  highQuality: z._default(z.boolean(), false),
  autoShare: z._default(z.boolean(), false),
});
export type RecordingOptions = z.infer<typeof RecordingOptionsSchema>;
export const DEFAULT_RECORDING_OPTIONS: RecordingOptions = RecordingOptionsSchema.parse({});

export const UNTITLED_MEETING = 'Untitled Meeting';
export const MAX_AUDIO_SOURCES = 2;
export const MAX_TITLE_LENGTH = 200;
export const MAX_PARTICIPANTS = 50;

const isoDateTime = z.iso.datetime({ offset: true });

/**
 * Where a processing meeting's transcription job is: its stage ("transcribing"; null when unknown),
 * the fraction done where the engine can tell, and when a retry is due. Null when no job is queued
 * or running.
 */
export const MeetingProcessingSchema = z.object({
  stage: TranscriptionStageSchema,
  progress: ProgressFractionSchema,
  ...progressDetailShape,
});
export type MeetingProcessing = z.infer<typeof MeetingProcessingSchema>;

/** What a meeting shared with a team the caller does not belong to answers (PATCH, create, import). */
export const NOT_A_TEAM_MEMBER_MESSAGE = 'You can only share a meeting with a team you belong to.';

/** How the caller reaches a meeting: their own, or shared with a team they belong to (read and export only). */
export const MeetingAccessSchema = z.enum(['owner', 'team']);
export type MeetingAccess = z.infer<typeof MeetingAccessSchema>;

export const MeetingSummarySchema = z.object({
  id: z.uuid(),
  title: z.string(),
  startedAt: z.string(),
  durationSeconds: z.number().check(z.int(), z.nonnegative()),
  status: MeetingStatusSchema,
  source: MeetingSourceSchema,
  participants: z.array(z.string()),
  summary: z.nullable(z.string()),
  isSample: z.boolean(),
  hasAudio: z.boolean(),
  createdAt: z.string(),
  /** Optional so older servers and the public demo and shared views may leave it out. */
  processing: z.optional(z.nullable(MeetingProcessingSchema)),
  /** Why the transcript could not be made (status failed), in words the person can act on. */
  failureReason: z.optional(z.nullable(z.string())),
  /** The team of its owner it is shared with; null while private. Optional: the public demo leaves the next three out. */
  teamId: z.optional(z.nullable(z.uuid())),
  owner: z.optional(z.object({ id: z.uuid(), name: z.string() })),
  access: z.optional(MeetingAccessSchema),
});
export type MeetingSummary = z.infer<typeof MeetingSummarySchema>;

export const SpeakerSchema = z.object({
  id: z.uuid(),
  label: z.string(),
  displayName: z.nullable(z.string()),
});
export type Speaker = z.infer<typeof SpeakerSchema>;

/** A word (or words) transcription corrected to a custom vocabulary term, with what was heard (undo puts it back). */
export const TranscriptCorrectionSchema = z.object({
  id: z.uuid(),
  /** Where the term is in the line's text now (UTF-16 index). */
  position: z.number().check(z.int(), z.nonnegative()),
  original: z.string(),
  corrected: z.string(),
});
export type TranscriptCorrection = z.infer<typeof TranscriptCorrectionSchema>;

export const TranscriptSegmentSchema = z.object({
  id: z.uuid(),
  speakerId: z.nullable(z.uuid()),
  startMs: z.number().check(z.int(), z.nonnegative()),
  endMs: z.number().check(z.int(), z.nonnegative()),
  text: z.string(),
  confidence: z.nullable(z.number().check(z.gte(0), z.lte(1))),
  /** Present when the line holds vocabulary corrections still in it. */
  corrections: z.optional(z.array(TranscriptCorrectionSchema)),
});
export type TranscriptSegment = z.infer<typeof TranscriptSegmentSchema>;

export const MeetingDetailSchema = z.extend(MeetingSummarySchema, {
  options: RecordingOptionsSchema,
  /** Capture sources, one per channel of the audio; null for a single mixed track. */
  audioSources: z.optional(z.nullable(z.array(z.string()))),
  failureReason: z.nullable(z.string()),
  speakers: z.array(SpeakerSchema),
  segments: z.array(TranscriptSegmentSchema),
  summarySentences: SummarySentencesSchema,
  insights: z.array(InsightSchema),
  notes: NotesStateSchema,
});
export type MeetingDetail = z.infer<typeof MeetingDetailSchema>;

const trimmed = (max: number) => z.string().check(z.trim(), z.maxLength(max));
const dateOnly = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date like 2026-11-22'));

/** How a search orders its meetings: newest first (the default), or best match first. */
export const SearchSortSchema = z.enum(['newest', 'relevance']);
export type SearchSort = z.infer<typeof SearchSortSchema>;

export const MeetingListQuerySchema = z.object({
  q: z.optional(trimmed(200)),
  sort: z.optional(SearchSortSchema),
  from: z.optional(dateOnly),
  to: z.optional(dateOnly),
  participant: z.optional(trimmed(100)),
  status: z.optional(MeetingStatusSchema),
  page: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(10_000)), 1),
  pageSize: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 12),
});
export type MeetingListQuery = z.infer<typeof MeetingListQuerySchema>;

/** Where a search hit a meeting: a transcript line, the summary, an action item or a decision. */
export const SearchMatchKindSchema = z.enum(['transcript', 'summary', 'action_item', 'decision']);
export type SearchMatchKind = z.infer<typeof SearchMatchKindSchema>;

/**
 * Why a meeting matched a search: a passage with the searched words marked (`match` parts), who
 * said it (or whom an action item is for), and the moment to open the meeting at (null for the summary).
 */
export const SearchMatchSchema = z.object({
  kind: SearchMatchKindSchema,
  /** The transcript segment (kind transcript); null otherwise. */
  segmentId: z.nullable(z.uuid()),
  speaker: z.nullable(z.string()),
  startMs: z.nullable(z.number().check(z.int(), z.nonnegative())),
  snippet: z.array(z.object({ text: z.string(), match: z.boolean() })),
});
export type SearchMatch = z.infer<typeof SearchMatchSchema>;

/** A meeting in a list; with a search, its best passages (`matches`). */
export const MeetingListItemSchema = z.extend(MeetingSummarySchema, { matches: z.optional(z.array(SearchMatchSchema)) });
export type MeetingListItem = z.infer<typeof MeetingListItemSchema>;

/** The most meetings a search counts: past it, `total` is this and `totalIsAtLeast` is true. */
export const SEARCH_COUNT_LIMIT = 1000;

export const MeetingListResponseSchema = z.object({
  items: z.array(MeetingListItemSchema),
  total: z.number().check(z.int(), z.nonnegative()),
  /** A search stopped counting at SEARCH_COUNT_LIMIT: at least `total` meetings match. */
  totalIsAtLeast: z.optional(z.boolean()),
  page: z.number().check(z.int()),
  pageSize: z.number().check(z.int()),
});
export type MeetingListResponse = z.infer<typeof MeetingListResponseSchema>;

export const CreateMeetingBodySchema = z.object({
  title: z._default(trimmed(MAX_TITLE_LENGTH), ''),
  source: z._default(z.enum(['mic', 'upload']), 'mic'),
  options: z._default(z.partial(RecordingOptionsSchema), {}),
  participants: z._default(z.array(trimmed(100).check(z.minLength(1))).check(z.maxLength(MAX_PARTICIPANTS)), []),
  startedAt: z.optional(isoDateTime),
  /** One per audio channel when the recording has separate capture sources (microphone, shared tab). */
  audioSources: z.optional(z.array(z.string().check(z.trim(), z.minLength(1), z.maxLength(40))).check(z.minLength(2), z.maxLength(MAX_AUDIO_SOURCES))),
  /** Shared with this team of the owner's from the start (/record's Auto-Share). */
  teamId: z.optional(z.uuid()),
});
export type CreateMeetingBody = z.input<typeof CreateMeetingBodySchema>;

/** The largest transcript file an import takes (its UTF-8 bytes). */
export const MAX_TRANSCRIPT_IMPORT_BYTES = 5 * 1024 * 1024;
/** What a transcript import answers (413) for a larger file, and what the web app says before sending one. */
export const TRANSCRIPT_TOO_LARGE_MESSAGE = 'The file is larger than 5 MB. Import a shorter transcript, or split it into parts.';
/**
 * The most transcript lines (cues, turns) one import takes: more than any real meeting has (an
 * 8-hour meeting, the default MAX_RECORDING_HOURS, with a new turn every 2 seconds has 14,400), so
 * a file of hundreds of thousands of one-word lines cannot occupy the server and the notes.
 */
export const MAX_IMPORT_SEGMENTS = 20_000;
/** The most speakers one import names. */
export const MAX_IMPORT_SPEAKERS = 200;
/**
 * The longest meeting Parley keeps, in hours: MAX_RECORDING_HOURS's upper bound, and the latest
 * time an imported transcript may give (a time past it is a typo or an attack, never a meeting).
 */
export const MAX_MEETING_HOURS = 168;
/** The transcript files an import reads: WebVTT, SubRip and plain text. */
export const TRANSCRIPT_IMPORT_EXTENSIONS = ['.vtt', '.srt', '.txt'] as const;

/**
 * POST /api/v1/meetings/imports: a transcript file's name and text, read in the browser. Its size is
 * checked in bytes by the route (413); the body limit leaves room for JSON's escapes of the text.
 */
export const ImportTranscriptBodySchema = z.object({
  fileName: z.string().check(z.trim(), z.minLength(1), z.maxLength(255)),
  content: z.string(),
  /** The meeting's title; the file's name without its extension when left out. */
  title: z.optional(trimmed(MAX_TITLE_LENGTH)),
  /** When the meeting took place; now when left out. */
  startedAt: z.optional(isoDateTime),
  /** Shared with this team of the owner's from the start. */
  teamId: z.optional(z.uuid()),
});
export type ImportTranscriptBody = z.infer<typeof ImportTranscriptBodySchema>;

export const UpdateMeetingBodySchema = z
  .object({
    title: z.optional(trimmed(MAX_TITLE_LENGTH)),
    summary: z.optional(z.nullable(z.string().check(z.maxLength(20_000)))),
    participants: z.optional(z.array(trimmed(100).check(z.minLength(1))).check(z.maxLength(MAX_PARTICIPANTS))),
    /** Shares the meeting with one of the owner's teams, or makes it private again (null). */
    teamId: z.optional(z.nullable(z.uuid())),
  })
  .check(z.refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'Nothing to update' }));
export type UpdateMeetingBody = z.infer<typeof UpdateMeetingBodySchema>;

export const UpdateSegmentBodySchema = z.object({ text: z.string().check(z.trim(), z.minLength(1), z.maxLength(10_000)) });
export const UpdateSpeakerBodySchema = z.object({ displayName: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)) });

export const MergeSpeakerBodySchema = z.object({ intoSpeakerId: z.uuid() });
/** Lines given to another speaker: one line, or a run of them. */
/** `speakerId` 'new': the lines go to a new speaker made for them. */
export const AssignSegmentsBodySchema = z.object({
  segmentIds: z.array(z.uuid()).check(z.minLength(1), z.maxLength(5000)),
  speakerId: z.union([z.uuid(), z.literal('new')]),
});
/**
 * A move undone in one change: each line given back the speaker it had; `removeSpeakerId`, the new
 * speaker the move made, is removed when no line is left to it (kept otherwise).
 */
export const RestoreSegmentSpeakersBodySchema = z.object({
  lines: z.array(z.object({ segmentId: z.uuid(), speakerId: z.uuid() })).check(z.minLength(1), z.maxLength(5000)),
  removeSpeakerId: z.optional(z.uuid()),
});
/** Where a line is cut: a character offset into its text (between two words). */
export const SplitSegmentBodySchema = z.object({ at: z.number().check(z.int(), z.minimum(1), z.maximum(10_000)) });
export const JoinSegmentsBodySchema = z.object({ nextSegmentId: z.uuid() });
export const SpeakerNamesSchema = z.object({ names: z.array(z.string()) });
export const IdParamsSchema = z.object({ id: z.uuid() });

/** GET /api/v1/meetings/:id/search?q=: the passages of one meeting that match, in transcript order. */
export const MeetingSearchQuerySchema = z.object({ q: trimmed(200).check(z.minLength(1)) });
export const MeetingSearchResponseSchema = z.object({ matches: z.array(SearchMatchSchema) });
export type MeetingSearchResponse = z.infer<typeof MeetingSearchResponseSchema>;
/** The most passages a search inside one meeting answers. */
export const MEETING_SEARCH_LIMIT = 200;
export const SegmentParamsSchema = z.object({ id: z.uuid(), segmentId: z.uuid() });
export const CorrectionParamsSchema = z.object({ id: z.uuid(), correctionId: z.uuid() });
export const SpeakerParamsSchema = z.object({ id: z.uuid(), speakerId: z.uuid() });

/** The default per-account storage quota (STORAGE_QUOTA_GB), which the dashboard's storage bar measures against (the spec shows storage as a percent). */
export const STORAGE_ALLOWANCE_BYTES = 10 * 1024 ** 3;

/** GET /api/v1/meetings/stats: the signed-in person's usage, for the dashboard (spec §2, §9). */
export const MeetingStatsSchema = z.object({
  /** The person's own meetings: the sample meetings are left out of these figures. */
  meetings: z.number().check(z.int()),
  meetingsTranscribed: z.number().check(z.int()),
  hoursRecorded: z.number(),
  /** Sample meetings still in the account (0 once removed): while any are, "Remove sample meetings" is offered. */
  sampleMeetings: z.number().check(z.int()),
  /** A new account's sample meetings are still being set up (by a worker, moments after sign-up): the dashboard says so meanwhile. */
  samplesSettingUp: z.boolean(),
  storageBytes: z.number().check(z.int()),
  storagePercent: z.number(),
  /** What the notes of the person's own meetings hold: the samples left out, as above. */
  insights: z.object({
    keyPoints: z.number().check(z.int()),
    actionItems: z.number().check(z.int()),
    decisions: z.number().check(z.int()),
    topics: z.number().check(z.int()),
  }),
});
export type MeetingStats = z.infer<typeof MeetingStatsSchema>;

/**
 * GET /api/v1/meetings/:id/export?format=…: the meeting as a file in one of these formats. The
 * documents (txt, md, docx, pdf) carry its facts, notes and transcript; the captions (srt, vtt) the transcript.
 */
export const EXPORT_FORMATS = ['txt', 'md', 'docx', 'pdf', 'srt', 'vtt'] as const;
export const ExportFormatSchema = z.enum(EXPORT_FORMATS);
export type ExportFormat = z.infer<typeof ExportFormatSchema>;
export const ExportQuerySchema = z.object({ format: ExportFormatSchema });

/** A short-lived address of the recording for an <audio> element, which streams with Range requests but cannot send the bearer token. */
export const AudioLinkSchema = z.object({ url: z.string(), expiresAt: isoDateTime });
export type AudioLink = z.infer<typeof AudioLinkSchema>;
export const AudioStreamQuerySchema = z.object({
  token: z.string().check(z.minLength(1), z.maxLength(2000), z.regex(/^[A-Za-z0-9_-]+$/)),
});
/** The recording's waveform (loudest sample per slice, 0–1) and its decoded length. */
export const AudioPeaksSchema = z.object({ peaks: z.array(z.number().check(z.gte(0), z.lte(1))), durationSeconds: z.number().check(z.nonnegative()) });
export type AudioPeaks = z.infer<typeof AudioPeaksSchema>;
/** A recording's download: in the format asked for, else the person's Settings › Recording › Default File Format. */
export const AudioDownloadQuerySchema = z.object({ format: z.optional(z.enum(FILE_FORMAT_VALUES)) });

export const DeletedSchema = z.object({ deleted: z.number().check(z.int()) });
export const RetryAcceptedSchema = z.object({ status: z.literal('processing') });

const tag = 'meetings';

/** The longest Idempotency-Key taken (a UUID is 36 characters). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** What a create request answers (422) with a key used before for another request. */
export const IDEMPOTENCY_KEY_REUSED_MESSAGE = 'This Idempotency-Key was used for a different request. Send a new key with a new request.';
/** How long an Idempotency-Key answers with its first result. */
export const IDEMPOTENCY_KEY_HOURS = 24;

/**
 * Idempotency-Key on the endpoints that create: a client retrying after a lost answer sends the
 * same key, and gets the first answer again instead of a second meeting (within 24 hours, per person).
 */
export const IdempotencyHeadersSchema = z.looseObject({
  'idempotency-key': z.optional(z.string().check(z.minLength(1), z.maxLength(MAX_IDEMPOTENCY_KEY_LENGTH), z.regex(/^[\x21-\x7e]+$/))),
});

/** /api/v1/meetings: list with search and filters, read, create, edit, delete, retry, downloads. */
export const meetingEndpoints = {
  list: defineEndpoint({ method: 'GET', path: '/api/v1/meetings', query: MeetingListQuerySchema, response: MeetingListResponseSchema, tag }),
  create: defineEndpoint({
    method: 'POST',
    path: '/api/v1/meetings',
    body: CreateMeetingBodySchema,
    headers: IdempotencyHeadersSchema,
    response: MeetingDetailSchema,
    status: 201,
    tag,
  }),
  stats: defineEndpoint({ method: 'GET', path: '/api/v1/meetings/stats', response: MeetingStatsSchema, tag }),
  removeSamples: defineEndpoint({ method: 'DELETE', path: '/api/v1/meetings/samples', response: DeletedSchema, tag }),
  import: defineEndpoint({
    method: 'POST',
    path: '/api/v1/meetings/imports',
    body: ImportTranscriptBodySchema,
    headers: IdempotencyHeadersSchema,
    response: MeetingDetailSchema,
    status: 201,
    bodyLimit: 2 * MAX_TRANSCRIPT_IMPORT_BYTES + 64 * 1024,
    tag,
    summary: 'A meeting from a transcript file (WebVTT, SRT or plain text), without audio',
  }),
  get: defineEndpoint({ method: 'GET', path: '/api/v1/meetings/:id', params: IdParamsSchema, response: MeetingDetailSchema, tag }),
  update: defineEndpoint({
    method: 'PATCH',
    path: '/api/v1/meetings/:id',
    params: IdParamsSchema,
    body: UpdateMeetingBodySchema,
    response: MeetingDetailSchema,
    tag,
  }),
  updateSegment: defineEndpoint({
    method: 'PATCH',
    path: '/api/v1/meetings/:id/segments/:segmentId',
    params: SegmentParamsSchema,
    body: UpdateSegmentBodySchema,
    response: MeetingDetailSchema,
    tag,
  }),
  renameSpeaker: defineEndpoint({
    method: 'PATCH',
    path: '/api/v1/meetings/:id/speakers/:speakerId',
    params: SpeakerParamsSchema,
    body: UpdateSpeakerBodySchema,
    response: MeetingDetailSchema,
    tag,
  }),
  mergeSpeaker: defineEndpoint({
    method: 'POST',
    path: '/api/v1/meetings/:id/speakers/:speakerId/merge',
    params: SpeakerParamsSchema,
    body: MergeSpeakerBodySchema,
    response: MeetingDetailSchema,
    tag,
    summary: "Gives a speaker's lines to another speaker of the meeting and removes the first",
  }),
  assignSegments: defineEndpoint({
    method: 'POST',
    path: '/api/v1/meetings/:id/segments/speaker',
    params: IdParamsSchema,
    body: AssignSegmentsBodySchema,
    response: MeetingDetailSchema,
    tag,
    summary: 'Gives transcript lines to another speaker of the meeting',
  }),
  restoreSegmentSpeakers: defineEndpoint({
    method: 'POST',
    path: '/api/v1/meetings/:id/segments/speakers/restore',
    params: IdParamsSchema,
    body: RestoreSegmentSpeakersBodySchema,
    response: MeetingDetailSchema,
    tag,
    summary: 'Gives each line back its own speaker in one change (a move undone), all or nothing; a speaker the move made goes once it has no lines',
  }),
  splitSegment: defineEndpoint({
    method: 'POST',
    path: '/api/v1/meetings/:id/segments/:segmentId/split',
    params: SegmentParamsSchema,
    body: SplitSegmentBodySchema,
    response: MeetingDetailSchema,
    tag,
    summary: 'Cuts a transcript line in two at a character of its text; the second part is a new line of the same speaker',
  }),
  undoCorrection: defineEndpoint({
    method: 'POST',
    path: '/api/v1/meetings/:id/corrections/:correctionId/undo',
    params: CorrectionParamsSchema,
    response: MeetingDetailSchema,
    tag,
    summary: 'Puts back what was heard in place of a custom vocabulary correction (a transcript edit)',
  }),
  joinSegments: defineEndpoint({
    method: 'POST',
    path: '/api/v1/meetings/:id/segments/:segmentId/join',
    params: SegmentParamsSchema,
    body: JoinSegmentsBodySchema,
    response: MeetingDetailSchema,
    tag,
    summary: 'Makes a line and another one line again (a split undone), with the first line’s speaker',
  }),
  speakerNames: defineEndpoint({
    method: 'GET',
    path: '/api/v1/meetings/speaker-names',
    response: SpeakerNamesSchema,
    tag,
    summary: 'The names the caller has given speakers in their meetings, most used first',
  }),
  search: defineEndpoint({
    method: 'GET',
    path: '/api/v1/meetings/:id/search',
    params: IdParamsSchema,
    query: MeetingSearchQuerySchema,
    response: MeetingSearchResponseSchema,
    tag,
    summary: 'Search inside one meeting: its matching passages, highlighted, with their moments',
  }),
  remove: defineEndpoint({ method: 'DELETE', path: '/api/v1/meetings/:id', params: IdParamsSchema, response: DeletedSchema, tag }),
  retry: defineEndpoint({
    method: 'POST',
    path: '/api/v1/meetings/:id/retry',
    params: IdParamsSchema,
    response: RetryAcceptedSchema,
    status: 202,
    tag,
    summary: 'Transcribe a failed meeting again',
  }),
  audio: defineEndpoint({
    method: 'GET',
    path: '/api/v1/meetings/:id/audio',
    params: IdParamsSchema,
    response: 'file',
    tag,
    summary: 'The recording, with byte ranges',
  }),
  audioLink: defineEndpoint({
    method: 'POST',
    path: '/api/v1/meetings/:id/audio/link',
    params: IdParamsSchema,
    response: AudioLinkSchema,
    // The link is tied to the session that asked for it (signing out ends it); a token reads /audio directly.
    apiTokens: false,
    tag,
    summary: 'A link to the recording valid for a few minutes, for an audio element (which cannot send the bearer token)',
  }),
  audioStream: defineEndpoint({
    method: 'GET',
    path: '/api/v1/meetings/:id/audio/stream',
    params: IdParamsSchema,
    query: AudioStreamQuerySchema,
    response: 'file',
    // The token from audioLink stands in for the bearer token.
    auth: false,
    tag,
    summary: 'The recording, with byte ranges, through a link from audioLink',
  }),
  audioPeaks: defineEndpoint({
    method: 'GET',
    path: '/api/v1/meetings/:id/audio/peaks',
    params: IdParamsSchema,
    response: AudioPeaksSchema,
    tag,
    summary: "The recording's waveform and decoded length",
  }),
  audioDownload: defineEndpoint({
    method: 'GET',
    path: '/api/v1/meetings/:id/audio/download',
    params: IdParamsSchema,
    query: AudioDownloadQuerySchema,
    response: 'file',
    tag,
    summary: 'The recording as a file with its duration: MP3, WAV or AAC (M4A), by default the Settings › Recording format',
  }),
  export: defineEndpoint({
    method: 'GET',
    path: '/api/v1/meetings/:id/export',
    params: IdParamsSchema,
    query: ExportQuerySchema,
    response: 'file',
    tag,
    summary: 'The meeting (notes and transcript) as a file',
  }),
  demo: defineEndpoint({
    method: 'GET',
    path: '/api/v1/demo/meeting',
    response: MeetingDetailSchema,
    auth: false,
    tag,
    summary: 'The sample meeting of the public product tour',
  }),
};
