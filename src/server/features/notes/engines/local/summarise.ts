import type { CitedItem, TopicItem } from '../../notes-types.ts';
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

/**
 * The summary: what the meeting was about (its topics), then the most central statements that fit
 * in the word budget, in the order they were said, as one paragraph of cleaned sentences.
 */
export function writeSummary(ranked: Statement[], space: TermSpace, topics: TopicItem[]): string {
  const opening = topicsSentence(topics);
  const budget = SUMMARY_WORDS.target - opening.split(' ').length;
  const picked = pickDiverse(ranked, space, { limit: Infinity, maxWords: budget, maxSimilarity: NEAR_DUPLICATE });
  const statements = picked.sort((a, b) => a.sentence.index - b.sentence.index).map(reported);
  return statements.length === 0 ? '' : [opening, ...statements].filter(Boolean).join(' ');
}

/** One key point for about every six minutes of meeting, within the 3–8. */
function keyPointCount(meetingMs: number): number {
  return Math.min(KEY_POINTS.max, Math.max(KEY_POINTS.min, Math.round(meetingMs / 360_000)));
}

/** The most central statements that say different things, in meeting order, each citing its segment. */
export function pickKeyPoints(ranked: Statement[], space: TermSpace, meetingMs: number): CitedItem[] {
  return pickDiverse(ranked, space, { limit: keyPointCount(meetingMs), maxSimilarity: NEAR_DUPLICATE })
    .sort((a, b) => a.sentence.index - b.sentence.index)
    .map((s) => ({ text: reported(s), segmentIds: [s.sentence.segmentId] }));
}
