import { contentStems, shareFound } from './content-words.ts';
import type { CitedItem, NotesDraft, NotesSegment, NotesTranscript, TopicItem } from './notes-types.ts';

/**
 * The share of an item's content-word stems that must occur in the segments it cites (their text
 * plus who spoke them). Measured on the 43 hand-labelled items of tests/support/notes-citation-cases.ts
 * (the bench's `notes-llm` section prints it): faithful items score 0.5–1.0 and wrong citations,
 * invented and half-invented claims 0–0.43, so any threshold in 0.45–0.5 keeps 24 of 25 faithful
 * items and drops all 18 unfaithful ones; 0.6 would start dropping faithful summaries. The one
 * faithful item lost is a paraphrase in entirely other words ("release postponed by seven days"):
 * an item must share at least half its content words with what was said.
 */
export const CITATION_MIN_SHARE = 0.5;

export type CitationVerdict =
  | { ok: true; segmentIds: string[]; share: number }
  | { ok: false; reason: 'no-citation' | 'unknown-segment' | 'no-content' | 'words-not-found'; share: number };

type IndexedSegment = { order: number; segment: NotesSegment; stems: () => Set<string> };

/** A transcript's segments by id, with their stems computed once, on first use. */
export type CitationIndex = { segments: Map<string, IndexedSegment> };

export function indexTranscript(transcript: NotesTranscript): CitationIndex {
  const speakerWords = new Map(transcript.speakers.map((s) => [s.id, `${s.name ?? ''} ${s.label}`]));
  const segments = new Map<string, IndexedSegment>();
  transcript.segments.forEach((segment, order) => {
    let stems: Set<string> | undefined;
    const who = segment.speakerId ? (speakerWords.get(segment.speakerId) ?? '') : '';
    segments.set(segment.id, { order, segment, stems: () => (stems ??= contentStems(`${segment.text} ${who}`)) });
  });
  return { segments };
}

/** Whether one item's citations hold: every id is this meeting's, and its words are in them. */
export function checkCitedItem(item: CitedItem, index: CitationIndex): CitationVerdict {
  const ids = [...new Set(item.segmentIds)];
  if (ids.length === 0) return { ok: false, reason: 'no-citation', share: 0 };
  const cited: IndexedSegment[] = [];
  for (const id of ids) {
    const found = index.segments.get(id);
    if (!found) return { ok: false, reason: 'unknown-segment', share: 0 };
    cited.push(found);
  }
  const claim = contentStems(item.text);
  if (claim.size === 0) return { ok: false, reason: 'no-content', share: 0 };
  const source = new Set(cited.flatMap((c) => [...c.stems()]));
  const share = shareFound(claim, source);
  if (share < CITATION_MIN_SHARE) return { ok: false, reason: 'words-not-found', share };
  cited.sort((a, b) => a.order - b.order);
  return { ok: true, segmentIds: cited.map((c) => c.segment.id), share };
}

function keepChecked<T extends CitedItem>(items: T[], index: CitationIndex, dropped: { count: number }): T[] {
  const kept: T[] = [];
  for (const item of items) {
    const verdict = checkCitedItem(item, index);
    if (verdict.ok) kept.push({ ...item, text: item.text.trim(), segmentIds: verdict.segmentIds });
    else dropped.count++;
  }
  return kept;
}

/** A topic spans its cited segments: its times come from the transcript, never from the model. */
function timeTopic(topic: TopicItem, index: CitationIndex): TopicItem {
  const cited = topic.segmentIds.map((id) => index.segments.get(id)?.segment).filter((s) => s !== undefined);
  return { ...topic, startMs: Math.min(...cited.map((s) => s.startMs)), endMs: Math.max(...cited.map((s) => s.endMs)) };
}

/**
 * Keeps the items whose citations check out, with their segment ids de-duplicated and in
 * transcript order and topics timed and ordered by their cited segments; drops and counts the rest.
 * A summary given as cited sentences keeps the sentences that check out and is made of them (a
 * sentence is not an item: one left out is not counted).
 */
export function checkCitations(draft: NotesDraft, transcript: NotesTranscript): { draft: NotesDraft; droppedUncited: number } {
  const index = indexTranscript(transcript);
  const dropped = { count: 0 };
  const topics = keepChecked(draft.topics, index, dropped)
    .map((topic) => timeTopic(topic, index))
    .sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
  const sentences = draft.summarySentences && keepChecked(draft.summarySentences, index, { count: 0 });
  return {
    draft: {
      summary: sentences ? sentences.map((s) => s.text).join(' ') : draft.summary.trim(),
      ...(sentences ? { summarySentences: sentences } : {}),
      keyPoints: keepChecked(draft.keyPoints, index, dropped),
      topics,
      actionItems: keepChecked(draft.actionItems, index, dropped),
      decisions: keepChecked(draft.decisions, index, dropped),
    },
    droppedUncited: dropped.count,
  };
}
