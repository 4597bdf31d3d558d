import type { ActionItemDraft, NotesSpeaker } from '../../notes-types.ts';
import type { Commitment } from './find-commitments.ts';

export type Owner = Pick<ActionItemDraft, 'assignee' | 'assigneeSpeakerId'>;

const NOBODY: Owner = { assignee: null, assigneeSpeakerId: null };

/** The speaker a said name refers to: their whole name or its first word, when only one speaker has it. */
function speakerNamed(name: string, speakers: NotesSpeaker[]): NotesSpeaker | undefined {
  const said = name.toLowerCase();
  const matches = speakers.filter((s) => {
    const full = s.name?.toLowerCase();
    return full !== undefined && (full === said || full.split(' ')[0] === said);
  });
  return matches.length === 1 ? matches[0] : undefined;
}

/**
 * Who an action item is for. The speaker for "I'll…" (their name, else their label, with their id
 * so a later rename shows); the person named ("Sam will…", "can you…, Maria?"), with their id when a
 * speaker has that name; nobody for "we'll…" or a request that names no one.
 */
export function resolveOwner(commitment: Commitment, speakerId: string | null, speakers: NotesSpeaker[]): Owner {
  if (commitment.kind === 'self') {
    const speaker = speakers.find((s) => s.id === speakerId);
    return speaker ? { assignee: speaker.name ?? speaker.label, assigneeSpeakerId: speaker.id } : NOBODY;
  }
  if (commitment.name === null) return NOBODY;
  // "Daniel, please…" is Daniel Ortiz when he is the one speaker of that name: one owner, written one way.
  const speaker = speakerNamed(commitment.name, speakers);
  return { assignee: speaker?.name ?? commitment.name, assigneeSpeakerId: speaker?.id ?? null };
}
