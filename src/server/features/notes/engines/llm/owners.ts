import type { NotesTranscript } from '../../notes-types.ts';

export type Owner = { assignee: string | null; assigneeSpeakerId: string | null };

const SELF = new Set(['me', 'i', 'myself', 'speaker', 'the speaker']);
const NOBODY = new Set(['', 'unassigned', 'none', 'nobody', 'no one', 'n/a', 'unknown', 'tbd', 'we', 'us', 'team', 'the team', 'everyone', 'all', 'you']);

const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim();
/** The words of a text as one spaced string, so a name is matched as whole words ("Al" is not in "also"). */
const spaced = (text: string) =>
  ` ${fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .join(' ')} `;

/**
 * Who does an action item, from the model's "owner": "me"/"I" is whoever said the earliest cited
 * line; a name is the speaker it names (full name, first name or label such as "Speaker 2");
 * a name that is no speaker is kept only when the cited lines say it ("Dana from legal will…"),
 * since a model can invent one; "we", "the team", "you" and the rest are nobody: Unassigned.
 */
export function resolveOwner(owner: string | null, citedSegmentIds: string[], transcript: NotesTranscript): Owner {
  const unassigned: Owner = { assignee: null, assigneeSpeakerId: null };
  const wanted = fold(owner ?? '');
  if (NOBODY.has(wanted)) return unassigned;
  const cited = transcript.segments.filter((s) => citedSegmentIds.includes(s.id));
  const speakerOf = (id: string | null) => transcript.speakers.find((s) => s.id === id);
  if (SELF.has(wanted)) {
    const speaker = speakerOf(cited[0]?.speakerId ?? null);
    return speaker ? { assignee: speaker.name ?? speaker.label, assigneeSpeakerId: speaker.id } : unassigned;
  }
  const matches = transcript.speakers.filter((s) => {
    const name = fold(s.name ?? '');
    return fold(s.label) === wanted || (name !== '' && (name === wanted || name.split(/\s+/)[0] === wanted || wanted.split(/\s+/)[0] === name));
  });
  if (matches.length === 1) return { assignee: matches[0]!.name ?? matches[0]!.label, assigneeSpeakerId: matches[0]!.id };
  if (matches.length > 1) return unassigned; // two speakers called Sam: guessing would be worse than asking
  const said = cited.some((s) => spaced(s.text).includes(spaced(wanted)));
  return said ? { assignee: (owner ?? '').trim(), assigneeSpeakerId: null } : unassigned;
}
