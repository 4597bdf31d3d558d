import type { ActionItemDraft, CitedItem, NotesDraft, NotesResult, NotesTranscript, TopicItem } from '../../notes-types.ts';
import type { FinalNotes, PartNotes } from './answer-schemas.ts';
import { resolveDue } from './due-dates.ts';
import { resolveOwner } from './owners.ts';
import type { ReferencedTranscript } from './transcript-lines.ts';

const SELF = /^(me|i|myself)$/i;

/** "me" means the speaker of the earliest cited line: named now, since after a merge nobody knows who "me" was. */
export function nameSelfOwners(notes: PartNotes, referenced: ReferencedTranscript, transcript: NotesTranscript): PartNotes {
  const actionItems = notes.actionItems.map((item) => {
    if (!item.owner || !SELF.test(item.owner.trim())) return item;
    const ids = new Set(item.refs.map((ref) => referenced.idOf(ref)));
    const speakerId = transcript.segments.find((s) => ids.has(s.id))?.speakerId ?? null;
    return { ...item, owner: speakerId ? referenced.speakerName(speakerId) : null };
  });
  return { ...notes, actionItems };
}

/** The local engine's notes on a part, in the model's terms, so the reduce step merges both alike. */
export function partFromLocal(result: NotesResult, referenced: ReferencedTranscript): PartNotes {
  // An id the transcript lacks gets a reference that maps to nothing, so the item is dropped and counted later.
  const refs = (ids: string[]) => ids.map((id) => referenced.refOf(id) ?? `?${id}`);
  return {
    // Its summary as the sentences it cites; one that cites none has nothing a summary may show.
    summaryPoints: (result.summarySentences ?? []).map((s) => ({ text: s.text, refs: refs(s.segmentIds) })),
    keyPoints: result.keyPoints.map((k) => ({ text: k.text, refs: refs(k.segmentIds) })),
    topics: result.topics.map((t) => ({ title: t.text, refs: refs(t.segmentIds) })),
    actionItems: result.actionItems.map((a) => ({ text: a.text, owner: a.assignee, due: a.due, dueText: a.dueText, refs: refs(a.segmentIds) })),
    decisions: result.decisions.map((d) => ({ text: d.text, refs: refs(d.segmentIds) })),
  };
}

/**
 * The final answer as notes: references back to segment ids (an item citing a reference that
 * was never shown is dropped and counted; a summary sentence so is dropped, as the citation check
 * drops one, but not counted: it is no item), owners mapped to speakers, due dates resolved.
 * Citations themselves are checked afterwards, with everything else.
 */
export function toDraft(final: FinalNotes, referenced: ReferencedTranscript, transcript: NotesTranscript): { draft: NotesDraft; unknownRefs: number } {
  let unknownRefs = 0;
  const cited = <T extends { refs: string[] }, R>(items: T[], build: (item: T, segmentIds: string[]) => R, counted = true): R[] =>
    items.flatMap((item) => {
      const ids = item.refs.map((ref) => referenced.idOf(ref));
      const known = ids.filter((id) => id !== undefined);
      if (known.length < ids.length) {
        if (counted) unknownRefs++;
        return [];
      }
      return [build(item, known)];
    });
  const point = (item: { text: string }, segmentIds: string[]): CitedItem => ({ text: item.text, segmentIds });
  const summarySentences = cited(final.summary, point, false);
  const draft: NotesDraft = {
    // Made of the sentences whose citations hold, once checked.
    summary: summarySentences.map((s) => s.text.trim()).join(' '),
    summarySentences,
    keyPoints: cited(final.keyPoints, point),
    // Timed from their segments by the citation check; the model is never asked for times.
    topics: cited(final.topics, (t, segmentIds): TopicItem => ({ text: t.title, segmentIds, startMs: 0, endMs: 0 })),
    actionItems: cited(final.actionItems, (a, segmentIds): ActionItemDraft => ({
      text: a.text,
      segmentIds,
      ...resolveOwner(a.owner, segmentIds, transcript),
      ...resolveDue(a.due, a.dueText, transcript),
    })),
    decisions: cited(final.decisions, point),
  };
  return { draft, unknownRefs };
}
