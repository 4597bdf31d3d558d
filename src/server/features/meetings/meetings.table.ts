import type { ColumnType, Generated } from 'kysely';

/** Tables of the meetings feature (migration 2026-11-22-1100). Timestamps are ISO-8601 UTC text. */

export type MeetingsTable = {
  id: string;
  owner_id: string;
  title: string;
  started_at: string;
  duration_seconds: number;
  status: 'recording' | 'processing' | 'ready' | 'failed';
  failure_reason: string | null;
  /** `import`: made from a transcript file, with no audio. */
  source: 'mic' | 'upload' | 'import' | 'sample';
  /** JSON of RecordingOptions. */
  options: string;
  summary: string | null;
  is_sample: number;
  audio_key: string | null;
  audio_mime: string | null;
  /** bigint on PostgreSQL, whose driver reads it back as a string. */
  audio_bytes: ColumnType<number | string | null, number | null, number | null>;
  /** The tus upload currently carrying this meeting's audio (migration 1300). */
  upload_id: string | null;
  /** JSON array of capture sources, one per audio channel; null for one mixed track (migration 1700). */
  audio_sources: string | null;
  created_at: string;
  updated_at: string;
  /** Goes up whenever the transcript or its speakers change, so notes made earlier show as out of date (migration 2026-11-23-1100). */
  transcript_revision: number;
  /** The owner's team it is shared with, or null: private to its owner (migration 2026-11-24-1410; meeting-access.ts decides who reads it). */
  team_id: string | null;
  /** An imported meeting's transcript file size in UTF-8 bytes, counted in the storage quota with audio; 0 otherwise (migration 2026-12-06-1040). */
  transcript_bytes: ColumnType<number, number | undefined, number>;
};

export type MeetingParticipantsTable = {
  meeting_id: string;
  position: number;
  name: string;
  /** For case-insensitive filtering with an index. */
  name_lower: string;
  /** Typed by a person (`manual`), or a named speaker of the transcript (`speaker`, kept in step with renames). */
  source: 'manual' | 'speaker';
};

export type MeetingSpeakersTable = {
  id: string;
  meeting_id: string;
  label: string;
  display_name: string | null;
  position: number;
};

export type TranscriptSegmentsTable = {
  id: string;
  meeting_id: string;
  speaker_id: string | null;
  start_ms: number;
  end_ms: number;
  text: string;
  confidence: number | null;
  /** -1..1 from the words, when the meeting has emotional analysis on (migration 1400). */
  sentiment: number | null;
};

/**
 * SQLite only: the meeting documents, a contentless FTS5 index whose rowid is the meeting's
 * meeting_search_docs.doc (migration 2026-11-25-1000).
 */
export type MeetingSearchTable = {
  rowid: number;
  title: string;
  people: string;
  notes: string;
  transcript: string;
};

/**
 * SQLite only: each meeting's two index keys. `doc`: its start in ms × 1024 (+ a tie-breaker), the
 * document's rowid, so the index reads newest first; `row`: its passages' rowids are row × 2^20 + position.
 */
export type MeetingSearchDocsTable = {
  row: Generated<number>;
  meeting_id: string;
  doc: number;
};

/** SQLite only: the passages (FTS5 keeping its text, for highlighting); rowid = row × 2^20 + position. */
export type PassageSearchTable = {
  rowid: number;
  speaker: string;
  text: string;
  kind: string;
  ref: string | null;
  start_ms: number | null;
};

/** PostgreSQL only: the passages with their tsvector (migration 2026-11-25-1000). */
export type MeetingSearchPassagesTable = {
  meeting_id: string;
  position: number;
  kind: string;
  ref: string | null;
  start_ms: number | null;
  speaker: string;
  text: string;
  vector: string;
};

/** An Idempotency-Key of a request that created a meeting, and the answer it got (migration 2026-12-06-1050). */
export type MeetingIdempotencyKeysTable = {
  user_id: string;
  /** Which create endpoint: 'create' or 'import'. */
  endpoint: string;
  key: string;
  /** SHA-256 of the request's body: the same key with another body is refused. */
  request_hash: string;
  /** The answer's status and JSON body; null while the first request is still being answered. */
  status: number | null;
  response: string | null;
  created_at: string;
};

/** A word (or words) of a line corrected to a custom vocabulary term by transcription, the original kept for undo (migration 2026-12-08-0310). */
export type TranscriptCorrectionsTable = {
  id: string;
  meeting_id: string;
  segment_id: string;
  /** Where the corrected text starts in the line (UTF-16 index). */
  position: number;
  /** What the engine heard. */
  original: string;
  /** The vocabulary term it became. */
  corrected: string;
};

export type MeetingTables = {
  meeting_idempotency_keys: MeetingIdempotencyKeysTable;
  meetings: MeetingsTable;
  meeting_participants: MeetingParticipantsTable;
  meeting_speakers: MeetingSpeakersTable;
  transcript_segments: TranscriptSegmentsTable;
  transcript_corrections: TranscriptCorrectionsTable;
  meeting_search: MeetingSearchTable;
  meeting_search_docs: MeetingSearchDocsTable;
  passage_search: PassageSearchTable;
  meeting_search_passages: MeetingSearchPassagesTable;
};

/**
 * The meetings table's columns as this feature reads them, for `select` instead of `meetings.*`: on
 * PostgreSQL the table also holds the search tsvector (the meeting's whole transcript, stored out of
 * line), and `*` detoasted and printed it for every row a list or search returned. Keyed by the
 * table's type, so a new column cannot be forgotten here.
 */
const MEETING_COLUMN_SET: Record<keyof MeetingsTable, true> = {
  id: true,
  owner_id: true,
  title: true,
  started_at: true,
  duration_seconds: true,
  status: true,
  failure_reason: true,
  source: true,
  options: true,
  summary: true,
  is_sample: true,
  audio_key: true,
  audio_mime: true,
  audio_bytes: true,
  upload_id: true,
  audio_sources: true,
  created_at: true,
  updated_at: true,
  transcript_revision: true,
  team_id: true,
  transcript_bytes: true,
};
export const MEETING_COLUMNS = (Object.keys(MEETING_COLUMN_SET) as (keyof MeetingsTable)[]).map((column) => `meetings.${column}` as const);
