import { z } from 'zod';

/**
 * The fake chat server's "model": deterministic notes made from what the prompt holds. It reads
 * the transcript lines ("[S12] Ana: …"), takes sentences from them and cites their references,
 * so whatever it answers is grounded in the lines it was actually sent.
 */
export type FakePoint = { text: string; refs: string[] };
export type FakeAction = FakePoint & { owner: string | null; due: string | null; dueText: string | null };
export type FakeNotes = {
  summary?: FakePoint[];
  summaryPoints?: FakePoint[];
  keyPoints: FakePoint[];
  topics: { title: string; refs: string[] }[];
  actionItems: FakeAction[];
  decisions: FakePoint[];
};

type Line = { ref: string; speaker: string; text: string };

const LINE = /^\[(S\d+)\] ([^:]+): (.*)$/gm;
const firstSentence = (text: string) => (/^.*?[.!?](\s|$)/.exec(text)?.[0] ?? text).trim();
const words = (text: string) => text.split(/\s+/).filter(Boolean);
const COMMITMENT = /\b(I'll|I will|will|need to|going to)\b/i;
const DECISION = /\b(decided|agreed|let's go with|we'll go with)\b/i;
const DUE = /\b(by (?:Monday|Tuesday|Wednesday|Thursday|Friday|tomorrow|next week|the end of the month)|tomorrow|next week)\b/i;

function readLines(prompt: string): Line[] {
  return [...prompt.matchAll(LINE)].map((m) => ({ ref: m[1]!, speaker: m[2]!, text: m[3]! }));
}

function ownerOf(text: string): string | null {
  if (/\bI('ll| will)\b/i.test(text)) return 'me';
  return /^(\p{Lu}\p{L}+) will\b/u.exec(text)?.[1] ?? null;
}

/** A summary of 60–150 words from the first sentences given, in order, each citing where it came from. */
function summaryOf(sentences: FakePoint[]): FakePoint[] {
  const chosen: FakePoint[] = [];
  let count = 0;
  for (const sentence of sentences) {
    if (count + words(sentence.text).length > 150) break;
    chosen.push(sentence);
    count += words(sentence.text).length;
    if (count >= 60) break;
  }
  return chosen;
}

/** Notes on the transcript lines of a prompt: a part's (summaryPoints) or a whole meeting's (summary). */
export function fakeNotesAnswer(prompt: string, withSummary: boolean): FakeNotes {
  const lines = readLines(prompt);
  const long = lines.filter((l) => words(l.text).length >= 8);
  // At most four topics, five key points and five action items a part, as a model keeping notes short would.
  const topics = [];
  const span = Math.max(6, Math.ceil(lines.length / 4));
  for (let i = 0; i < lines.length; i += span) {
    const group = lines.slice(i, i + span);
    const longest = group.reduce((a, b) => (words(b.text).length > words(a.text).length ? b : a));
    const title = words(longest.text.replace(/[^\p{L}\p{N}\s']/gu, ''))
      .filter((w) => w.length > 3)
      .slice(0, 3)
      .join(' ');
    if (title) topics.push({ title, refs: group.map((l) => l.ref) });
  }
  const notes: FakeNotes = {
    keyPoints: long
      .filter((_, i) => i % 4 === 0)
      .slice(0, 5)
      .map((l) => ({ text: firstSentence(l.text), refs: [l.ref] })),
    topics,
    actionItems: lines
      .filter((l) => COMMITMENT.test(l.text))
      .slice(0, 5)
      .map((l) => ({ text: l.text, owner: ownerOf(l.text), due: null, dueText: DUE.exec(l.text)?.[0] ?? null, refs: [l.ref] })),
    decisions: lines
      .filter((l) => DECISION.test(l.text))
      .slice(0, 3)
      .map((l) => ({ text: l.text, refs: [l.ref] })),
  };
  const sentences = lines.map((l) => ({ text: firstSentence(l.text), refs: [l.ref] }));
  if (withSummary) return { summary: summaryOf(sentences), ...notes };
  const picks = [0, Math.floor(lines.length / 2), lines.length - 1].filter((i, k, all) => i >= 0 && all.indexOf(i) === k);
  return { summaryPoints: picks.map((i) => sentences[i]!).filter(Boolean), ...notes };
}

const PointSchema = z.object({ text: z.string(), refs: z.array(z.string()) });
const PartsSchema = z.array(
  z.object({
    summaryPoints: z.array(PointSchema),
    keyPoints: z.array(PointSchema),
    topics: z.array(z.object({ title: z.string(), refs: z.array(z.string()) })),
    actionItems: z.array(PointSchema.extend({ owner: z.string().nullable(), due: z.string().nullable(), dueText: z.string().nullable() })),
    decisions: z.array(PointSchema),
  }),
);

function dedupe<T extends { refs: string[] }>(items: T[], keyOf: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) {
    const prior = seen.get(keyOf(item));
    seen.set(keyOf(item), prior ? { ...prior, refs: [...new Set([...prior.refs, ...item.refs])] } : item);
  }
  return [...seen.values()];
}

/** The parts' notes of a merge prompt ("Parts:" then JSON) merged: duplicates folded, nothing else dropped. */
export function fakeMergeAnswer(prompt: string, withSummary: boolean): FakeNotes {
  const parts = PartsSchema.parse(JSON.parse(prompt.slice(prompt.indexOf('\nParts:\n') + '\nParts:\n'.length)));
  const points = parts.flatMap((p) => p.summaryPoints);
  const notes = {
    keyPoints: dedupe(
      parts.flatMap((p) => p.keyPoints),
      (k) => k.text,
    ),
    topics: parts.flatMap((p) => p.topics),
    actionItems: dedupe(
      parts.flatMap((p) => p.actionItems),
      (a) => a.text,
    ),
    decisions: dedupe(
      parts.flatMap((p) => p.decisions),
      (d) => d.text,
    ),
  };
  return withSummary ? { summary: summaryOf(points), ...notes } : { summaryPoints: points.slice(0, 8), ...notes };
}

/** The summary sentences an `invent` answer adds: one its cited line never said, one citing a line never shown. */
export const INVENTED_SUMMARY_SENTENCES = [
  'The board approved the acquisition of a competitor for twelve million dollars.',
  'The team agreed to move all servers to the moon.',
] as const;

/** The sentence an `invent` answer adds to an Ask answer: cites a line that never said it. */
export const INVENTED_ASK_SENTENCE = 'The board approved the acquisition of a competitor for twelve million dollars.';

/**
 * An answer to Ask's prompt ("Question: …" then numbered lines): the first sentence of each of the
 * two lines sharing most words with the question, each citing its line, or NO ANSWER when none
 * shares any; `invent` adds a sentence its citation does not hold.
 */
export function fakeAskAnswer(prompt: string, invent: boolean): string {
  const question = /^Question: (.*)$/m.exec(prompt)?.[1] ?? '';
  const asked = new Set(words(question.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, ' ')).filter((w) => w.length > 3));
  const scored = readLines(prompt)
    .map((line) => ({ line, score: words(line.text.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, ' ')).filter((w) => asked.has(w)).length }))
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, 2);
  const answer = scored.map(({ line }) => `${firstSentence(line.text)} [${line.ref}]`);
  if (invent) answer.push(`${INVENTED_ASK_SENTENCE} [S1]`);
  return answer.length > 0 ? answer.join('\n') : 'NO ANSWER';
}

/** A rewrite that knows no synonyms: the question's longer words, so its figures say what the step costs, not what a model gains. */
export function fakeRewriteAnswer(prompt: string): string {
  const question = /^Question: (.*)$/m.exec(prompt)?.[1] ?? '';
  return words(question.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, ' '))
    .filter((w) => w.length > 3)
    .join(' ');
}

/** A re-rank by the words each passage shares with the question, most first; NONE when none shares any. */
export function fakeRerankAnswer(prompt: string): string {
  const question = /^Question: (.*)$/m.exec(prompt)?.[1] ?? '';
  const asked = new Set(words(question.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, ' ')).filter((w) => w.length > 3));
  const passages = prompt.split(/\n(?=\[P\d+\])/).flatMap((block) => {
    const ref = /^\[(P\d+)\]/.exec(block)?.[1];
    if (!ref) return [];
    const score = words(block.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, ' ')).filter((w) => asked.has(w)).length;
    return score > 0 ? [{ ref, score }] : [];
  });
  passages.sort((a, b) => b.score - a.score);
  return passages.length > 0 ? passages.map((p) => p.ref).join(', ') : 'NONE';
}

/**
 * The emotion provider's answer (features/emotion): a score for each numbered line of the prompt,
 * from a handful of telling words, as a model would rate tone.
 */
export function fakeToneAnswer(prompt: string): string {
  const lines = [...prompt.matchAll(/^(\d+)\. (.*)$/gm)].map((m) => ({ line: Number(m[1]), text: m[2]!.toLowerCase() }));
  const score = (text: string) =>
    /\b(glad|great|love|happy|excellent|thanks|thank you|wonderful)\b/.test(text)
      ? 0.8
      : /\b(worried|upset|bad|angry|terrible|late|frustrated)\b/.test(text)
        ? -0.7
        : 0;
  return JSON.stringify({ scores: lines.map(({ line, text }) => ({ line, score: score(text) })) });
}
