import type { Insight } from '#shared/contracts/notes.ts';
import { contentStems, shareFound } from './content-words.ts';
import type { NotesResult } from './notes-types.ts';
import type { NewItem } from './notes.repository.ts';

/** Which parts of the notes a meeting asked for: its "Summary" and "Action Items" recording options. */
export type NotesParts = { summary: boolean; actionItems: boolean };

/**
 * An engine's result as stored items: key points, decisions and topics belong to the Summary
 * option, action items to the Action Items option. Local-engine items are suggestions a person
 * accepts, edits or dismisses.
 */
export function itemsOf(
  result: NotesResult,
  parts: NotesParts,
  startOf: (segmentId: string) => number,
  speakerOf: (segmentId: string) => string | null = () => null,
): NewItem[] {
  const suggested = result.engine === 'local';
  const cited = (segmentIds: string[]) => ({ segmentIds, startMs: startOf(segmentIds[0]!) });
  const items: NewItem[] = [];
  if (parts.summary) {
    for (const point of result.keyPoints) items.push({ kind: 'key_point', text: point.text, ...cited(point.segmentIds), suggested });
    for (const decision of result.decisions) items.push({ kind: 'decision', text: decision.text, ...cited(decision.segmentIds), suggested });
    for (const topic of result.topics) {
      items.push({ kind: 'topic', text: topic.text, segmentIds: topic.segmentIds, startMs: topic.startMs, endMs: topic.endMs, suggested });
    }
  }
  if (parts.actionItems) {
    for (const action of result.actionItems) {
      items.push({
        kind: 'action_item',
        text: action.text,
        ...cited(action.segmentIds),
        assignee: action.assignee,
        // The owner is a speaker: kept with them, and with their line when they are the one who said it.
        assigneeSpeakerId: action.assigneeSpeakerId,
        assigneeSaid: action.assigneeSpeakerId !== null && action.segmentIds[0] !== undefined && speakerOf(action.segmentIds[0]) === action.assigneeSpeakerId,
        due: action.due,
        dueText: action.dueText,
        suggested,
      });
    }
  }
  return items.filter((item) => item.segmentIds.length > 0);
}

/** Two items say the same thing when most of one's content words are in the other. */
const SAME_ITEM_SHARE = 0.6;

/**
 * Notes written again keep what a person already reviewed (accepted, edited, ticked done or
 * dismissed), and leave out new items that repeat one of those.
 */
export function keepReviewed(reviewed: Insight[], fresh: NewItem[]): NewItem[] {
  const kept = reviewed.map((item) => ({ item, stems: contentStems(item.text) }));
  const repeats = (candidate: NewItem) => {
    const stems = contentStems(candidate.text);
    return kept.some(
      ({ item, stems: keptStems }) => item.kind === candidate.kind && Math.max(shareFound(stems, keptStems), shareFound(keptStems, stems)) >= SAME_ITEM_SHARE,
    );
  };
  return fresh.filter((candidate) => !repeats(candidate));
}
