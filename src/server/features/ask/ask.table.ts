/** A transcript segment's embedding (migration 2026-11-24-1620): float32 little-endian, base64. */
export type AskSegmentEmbeddingsTable = {
  segment_id: string;
  meeting_id: string;
  model: string;
  /** SHA-256 of the text the vector was computed from: an edited segment no longer matches. */
  text_hash: string;
  vector: string;
};

/** Which transcript revision of a meeting is embedded, with which model. */
export type AskEmbeddedMeetingsTable = {
  meeting_id: string;
  model: string;
  transcript_revision: number;
};

export type AskTables = { ask_segment_embeddings: AskSegmentEmbeddingsTable; ask_embedded_meetings: AskEmbeddedMeetingsTable };
