import type { ActionItemDraft, CitedItem, TopicItem } from '../../notes-types.ts';
import { renderSentence } from './clean-speech.ts';
import { pickDiverse, type Statement } from './rank-statements.ts';
import { reportGroupSpeech } from './report-speech.ts';
import type { TermSpace } from './term-weights.ts';

/** The bounds: a summary of 60–150 words and 3–8 key points. */
export const SUMMARY_WORDS = { min: 60, target: 130, max: 150 } as const;
export const KEY_POINTS = { min: 3, max: 8 } as const;
/** Cosine above which two statements count as saying the same thing. */
const NEAR_DUPLICATE = 0.5;

/** A statement as the minutes write it: cleaned, and the group's "we" reported as "the group". */
const reported = (statement: Statement) => renderSentence(reportGroupSpeech(statement.sentence.tokens));

/** "The meeting was about a, b and c." from the topics' names: what the meeting was about, first. */
function topicsSentence(topics: TopicItem[]): string {
  const names = topics.map((t) => (/^\p{Lu}\p{Ll}/u.test(t.text) ? t.text.charAt(0).toLowerCase() + t.text.slice(1) : t.text));
  if (names.length === 0) return '';
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return `The meeting was about ${list}.`;
}

/** What the meeting settled and left to do, as the summary reports it. */
export type SummaryFacts = { decisions: Statement[]; actionItems: ActionItemDraft[]; openQuestions: Statement[] };

/** The longest action or open question, in words, the summary writes out. */
const ACTION_WORDS = 20;
/** Words of a speaker to their listeners ("I think…", "you'll get…"): the summary speaks of people, not as them. */
const SPOKEN_PERSON: ReadonlySet<string> = new Set([
  'i',
  'me',
  'my',
  'mine',
  'myself',
  "i'm",
  "i'll",
  "i've",
  "i'd",
  'you',
  'your',
  'yours',
  "you're",
  "you'll",
  "you've",
  "you'd",
  'im',
  'shall',
]);
const lowerFirst = (text: string) => (/^\p{Lu}\p{Ll}/u.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text);

/** "Dana Kim will book the venue by Friday." — who will do what by when, in the third person. */
export function actionSentence(item: ActionItemDraft): string {
  const what = lowerFirst(item.text.replace(/[.!?]+$/u, ''));
  const when = item.dueText ? ` ${item.dueText}` : '';
  return item.assignee ? `${item.assignee} will ${what}${when}.` : `Still without an owner: ${what}${when}.`;
}

/** Several actions of one owner in one sentence: "Dana Kim will book the venue by Friday and draft the release." */
function actionSentences(items: ActionItemDraft[]): string[] {
  const byOwner = new Map<string, ActionItemDraft[]>();
  for (const item of items) byOwner.set(item.assignee ?? '', [...(byOwner.get(item.assignee ?? '') ?? []), item]);
  return [...byOwner.entries()].map(([owner, list]) => {
    const parts = list.map((item) => actionSentence({ ...item, assignee: owner || null }).replace(/\.$/u, ''));
    if (!owner || parts.length === 1) return `${parts.join('. ')}.`;
    const tails = parts.map((p, i) => (i === 0 ? p : p.slice(`${owner} will `.length)));
    return `${tails.slice(0, -1).join(', ')} and ${tails.at(-1)}.`;
  });
}

/**
 * The summary, in the third person from what the meeting produced: what it was about (its topics),
 * its most central statements in the order they were said, what the group decided, who will do what
 * by when, and what was left open; the statements fill what the facts leave of the word budget.
 * Statements in the first person ("I think…") are left to the key points: the summary speaks of the
 * group and of people by name.
 */
export function writeSummary(ranked: Statement[], space: TermSpace, topics: TopicItem[], facts?: SummaryFacts): string {
  const opening = topicsSentence(topics);
  const thirdPerson = (s: Statement) => !s.sentence.tokens.some((t) => SPOKEN_PERSON.has(t.lower));
  const decided = (facts?.decisions ?? []).filter(thirdPerson).map((d) => {
    const text = reported(d);
    return /^the group\b/i.test(text) ? text : `The group decided: ${lowerFirst(text)}`;
  });
  // Who will do what: the items with an owner, short enough to read in a sentence (the rest are in the list).
  const actions = actionSentences((facts?.actionItems ?? []).filter((a) => a.assignee !== null && a.text.split(/\s+/).length <= ACTION_WORDS));
  const open = (facts?.openQuestions ?? [])
    .filter((q) => thirdPerson(q) && q.sentence.wordCount <= ACTION_WORDS)
    .slice(0, 2)
    .map((q) => `Still open: ${lowerFirst(reported(q))}`);
  const words = (list: string[]) => list.reduce((n, t) => n + t.split(/\s+/).length, 0);
  const factsText: string[] = [];
  for (const sentence of [...decided, ...actions, ...open]) if (words([opening, ...factsText, sentence]) <= SUMMARY_WORDS.max - 20) factsText.push(sentence);
  const used = new Set([...(facts?.decisions ?? []), ...(facts?.openQuestions ?? [])].map((s) => s.sentence.index));
  const cited = new Set((facts?.actionItems ?? []).flatMap((a) => a.segmentIds));
  const candidates = ranked.filter(
    (s) => !used.has(s.sentence.index) && !cited.has(s.sentence.segmentId) && !s.sentence.tokens.some((t) => SPOKEN_PERSON.has(t.lower)),
  );
  const budget = SUMMARY_WORDS.target - words([opening, ...factsText]);
  const picked =
    budget > 0 ? pickDiverse(candidates.length > 0 ? candidates : ranked, space, { limit: Infinity, maxWords: budget, maxSimilarity: NEAR_DUPLICATE }) : [];
  const statements = picked.sort((a, b) => a.sentence.index - b.sentence.index).map(reported);
  if (statements.length === 0 && factsText.length === 0) return '';
  return [opening, ...statements, ...factsText].filter(Boolean).join(' ');
}

/** One key point for about every six minutes of meeting, within the 3–8. */
function keyPointCount(meetingMs: number): number {
  return Math.min(KEY_POINTS.max, Math.max(KEY_POINTS.min, Math.round(meetingMs / 360_000)));
}

/**
 * The most central statements that say different things, in meeting order, each citing its segment;
 * none said where a decision or an action item was (`elsewhere`): each item in one place.
 */
export function pickKeyPoints(ranked: Statement[], space: TermSpace, meetingMs: number, elsewhere: ReadonlySet<string> = new Set()): CitedItem[] {
  const free = ranked.filter((s) => !elsewhere.has(s.sentence.segmentId));
  return pickDiverse(free, space, { limit: keyPointCount(meetingMs), maxSimilarity: NEAR_DUPLICATE })
    .sort((a, b) => a.sentence.index - b.sentence.index)
    .map((s) => ({ text: reported(s), segmentIds: [s.sentence.segmentId] }));
}
