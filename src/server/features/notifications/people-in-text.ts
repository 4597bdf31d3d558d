/**
 * Finding people in what was said and in notes, precisely rather than often: a mention is a person's
 * whole name (two words or more, as they gave it), as words, anywhere in a transcript line; an action
 * item's owner is a person when the notes' owner is their whole name, or their first name and no one
 * else who could be meant shares it.
 */

export type Person = { userId: string; name: string };

const words = (name: string): string[] => name.trim().toLowerCase().split(/\s+/u).filter(Boolean);
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A name to look for in speech: two words or more (a lone first name is said of too many people). */
function mentionPattern(name: string): RegExp | undefined {
  const parts = words(name);
  if (parts.length < 2) return undefined;
  return new RegExp(`(?<![\\p{L}\\p{N}])${parts.map(escapeRegExp).join('\\s+')}(?![\\p{L}\\p{N}])`, 'iu');
}

export type Mention = { userId: string; segmentId: string; startMs: number; text: string };

/** The first line naming each person, in the order of the transcript. */
export function findMentions(segments: readonly { id: string; startMs: number; text: string }[], people: readonly Person[]): Mention[] {
  const found: Mention[] = [];
  for (const person of people) {
    const pattern = mentionPattern(person.name);
    if (!pattern) continue;
    const segment = segments.find((s) => pattern.test(s.text));
    if (segment) found.push({ userId: person.userId, segmentId: segment.id, startMs: segment.startMs, text: segment.text });
  }
  return found;
}

/** The person an action item's owner names among those who could be meant, if exactly one. */
export function resolveOwner(assignee: string | null, candidates: readonly Person[]): string | undefined {
  const owner = words(assignee ?? '');
  if (owner.length === 0) return undefined;
  const whole = owner.join(' ');
  const byName = candidates.filter((c) => words(c.name).join(' ') === whole);
  if (byName.length > 0) return new Set(byName.map((c) => c.userId)).size === 1 ? byName[0]!.userId : undefined;
  if (owner.length !== 1) return undefined;
  const byFirst = candidates.filter((c) => words(c.name).length >= 2 && words(c.name)[0] === whole);
  return new Set(byFirst.map((c) => c.userId)).size === 1 ? byFirst[0]!.userId : undefined;
}
