import type { NotesSegment, NotesSpeaker } from './notes-types.ts';

/** An action item whose assignee is a speaker of its meeting. */
export type SpeakerAssignedItem = {
  id: string;
  assignee: string | null;
  speakerId: string;
  /** The assignee is whoever said the first cited line ("I'll send it"), not someone named in it. */
  said: boolean;
  segmentIds: string[];
};

/** A speaker merged into another: the items of the first are the other's. */
export type SpeakerMerge = { speakerId: string; intoSpeakerId: string };

/**
 * The assignees that change after the person corrected who spoke: an "I'll…" item goes with its
 * first cited line to whoever says it now; an item for a named speaker follows that speaker's name
 * and, when it was merged into another, the other. A speaker no longer in the meeting with no merge
 * to follow leaves the item as it is (a later merge event may still say where it went).
 */
export function followSpeakers(
  items: readonly SpeakerAssignedItem[],
  transcript: { speakers: readonly NotesSpeaker[]; segments: readonly Pick<NotesSegment, 'id' | 'speakerId'>[] },
  merged?: SpeakerMerge,
): { id: string; assignee: string; speakerId: string }[] {
  const speakerOfLine = new Map(transcript.segments.map((s) => [s.id, s.speakerId]));
  const changes: { id: string; assignee: string; speakerId: string }[] = [];
  for (const item of items) {
    let speakerId: string | null | undefined = item.speakerId;
    if (item.said) {
      const line = item.segmentIds.find((id) => speakerOfLine.has(id));
      if (line !== undefined) speakerId = speakerOfLine.get(line);
    }
    if (merged && speakerId === merged.speakerId) speakerId = merged.intoSpeakerId;
    const speaker = transcript.speakers.find((s) => s.id === speakerId);
    if (!speaker) continue;
    const assignee = speaker.name ?? speaker.label;
    if (assignee !== item.assignee || speaker.id !== item.speakerId) changes.push({ id: item.id, assignee, speakerId: speaker.id });
  }
  return changes;
}

/** Items about to be stored, their speaker-owned action items given the names the speakers have now. */
export function followNames<
  I extends { kind: string; assignee?: string | null; assigneeSpeakerId?: string | null; assigneeSaid?: boolean; segmentIds: string[] },
>(items: readonly I[], transcript: { speakers: readonly NotesSpeaker[]; segments: readonly Pick<NotesSegment, 'id' | 'speakerId'>[] }): I[] {
  const owned = items.flatMap((item, i) =>
    item.kind === 'action_item' && item.assigneeSpeakerId
      ? [{ id: String(i), assignee: item.assignee ?? null, speakerId: item.assigneeSpeakerId, said: item.assigneeSaid ?? false, segmentIds: item.segmentIds }]
      : [],
  );
  const changes = new Map(followSpeakers(owned, transcript).map((c) => [Number(c.id), c]));
  return items.map((item, i) => {
    const change = changes.get(i);
    return change ? { ...item, assignee: change.assignee, assigneeSpeakerId: change.speakerId } : item;
  });
}
