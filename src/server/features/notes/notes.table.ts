/** Tables of the notes feature (migrations 2026-11-22-1100, 2026-11-23-1100, 2026-11-24-1000 and 2026-12-10-0200). Timestamps are ISO-8601 UTC text. */

export type MeetingInsightsTable = {
  id: string;
  meeting_id: string;
  kind: 'key_point' | 'action_item' | 'decision' | 'topic';
  text: string;
  assignee: string | null;
  /** The speaker of the meeting the assignee is, while it follows their name (null once a person chose the assignee). */
  assignee_speaker_id: string | null;
  /** 1 when the assignee is whoever said the first cited line ("I'll…"): lines moved to another speaker move it. */
  assignee_said: number;
  /** Action items: the due date (YYYY-MM-DD). */
  due: string | null;
  /** The first cited segment (its foreign key lets a replaced transcript clear it). */
  segment_id: string | null;
  position: number;
  /** JSON array of the cited segment ids, in transcript order. */
  segment_ids: string | null;
  start_ms: number | null;
  end_ms: number | null;
  due_text: string | null;
  status: 'open' | 'done' | 'dismissed';
  /** 1 while a local-engine suggestion awaits a person's accept or edit. */
  suggested: number;
  /** 1 once a person accepted, edited, ticked or dismissed it: notes written again keep it. */
  reviewed: number;
};

export type MeetingNotesTable = {
  meeting_id: string;
  status: 'queued' | 'running' | 'ready' | 'failed' | 'off';
  engine: 'local' | 'llm' | null;
  failure_reason: string | null;
  dropped_uncited: number;
  local_fallback_parts: number;
  part: number | null;
  parts: number | null;
  /** The meetings.transcript_revision the notes were made from. */
  source_revision: number | null;
  generated_at: string | null;
  updated_at: string;
  /**
   * JSON array of the written summary's sentences, each `{ text, segmentIds, startMs }`; null when
   * the summary has none (notes written before sentences were kept, or no sentence held).
   */
  summary_sentences: string | null;
};

/** A later meeting's moment that talked about an open action item again (one per item and meeting). */
export type ActionItemMentionsTable = {
  id: string;
  /** The action item (of an earlier meeting). */
  item_id: string;
  /** The later meeting, and the segment in it that talked about the item. */
  meeting_id: string;
  segment_id: string;
  start_ms: number;
  /** The person's answer to "done or slipped?"; null until asked and answered. */
  resolution: 'done' | 'slipped' | null;
  created_at: string;
};

/** A later decision on the same subject as an earlier one: suggested, then confirmed or rejected by the person. */
export type DecisionLinksTable = {
  id: string;
  earlier_id: string;
  later_id: string;
  status: 'suggested' | 'confirmed' | 'rejected';
  created_at: string;
};

export type NotesTables = {
  meeting_insights: MeetingInsightsTable;
  meeting_notes: MeetingNotesTable;
  action_item_mentions: ActionItemMentionsTable;
  decision_links: DecisionLinksTable;
};
