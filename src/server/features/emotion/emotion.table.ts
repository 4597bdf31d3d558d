/** Table of the emotion feature (migration 2026-12-07-1200). */
export type EmotionScoredSegmentsTable = {
  segment_id: string;
  meeting_id: string;
  /** The provider that scored it: its host and model, so another provider scores the meeting again. */
  provider: string;
  /** SHA-256 of the line's text as it was scored: an edited line is scored again, the others are not. */
  text_hash: string;
};

export type EmotionTables = { emotion_scored_segments: EmotionScoredSegmentsTable };
