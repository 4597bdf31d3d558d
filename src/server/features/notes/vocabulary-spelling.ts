import type { NotesResult } from './notes-types.ts';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The notes with custom vocabulary terms spelled as the vocabulary spells them ("anika okafor" →
 * "Anika Okafor", "Postgresql" → "PostgreSQL"): whole words, any case. An LLM is told the terms in
 * its prompt and usually complies; the local engine copies the transcript's words; this makes both
 * right. Only terms with capitals or several words: a lone lower-case term has no spelling to impose.
 */
export function spellAsVocabulary(result: NotesResult, terms: readonly string[]): NotesResult {
  const patterns = terms
    .filter((term) => /\p{Lu}/u.test(term) || /\s/.test(term))
    .map((term) => ({ term, pattern: new RegExp(`(?<![\\p{L}\\p{N}])${escape(term).replace(/\s+/g, '\\s+')}(?![\\p{L}\\p{N}])`, 'giu') }));
  if (patterns.length === 0) return result;
  const spell = (text: string) => patterns.reduce((out, { term, pattern }) => out.replace(pattern, term), text);
  const spellNullable = (text: string | null) => (text === null ? null : spell(text));
  return {
    ...result,
    summary: spell(result.summary),
    ...(result.summarySentences ? { summarySentences: result.summarySentences.map((s) => ({ ...s, text: spell(s.text) })) } : {}),
    keyPoints: result.keyPoints.map((item) => ({ ...item, text: spell(item.text) })),
    topics: result.topics.map((item) => ({ ...item, text: spell(item.text) })),
    decisions: result.decisions.map((item) => ({ ...item, text: spell(item.text) })),
    actionItems: result.actionItems.map((item) => ({ ...item, text: spell(item.text), assignee: spellNullable(item.assignee) })),
  };
}
