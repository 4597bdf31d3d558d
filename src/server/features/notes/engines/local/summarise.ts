import type { ActionItemDraft, CitedItem, NotesSegment, NotesSpeaker, TopicItem } from '../../notes-types.ts';
import { renderSentence } from './clean-speech.ts';
import { pickDiverse, type Statement } from './rank-statements.ts';
import { reportGroupSpeech } from './report-speech.ts';
import type { TermSpace } from './term-weights.ts';

/**
 * The bounds: a summary of 60–150 words and 3–8 key points. The summary aims at about 100
 * words, near the length of the hand-written meeting summaries it was compared with: longer ones
 * added run-on statements, not facts.
 */
export const SUMMARY_WORDS = { min: 60, target: 100, max: 150 } as const;
export const KEY_POINTS = { min: 3, max: 8 } as const;
/** Cosine above which two statements count as saying the same thing. */
const NEAR_DUPLICATE = 0.5;

/** A statement as the minutes write it: cleaned, and the group's "we" reported as "the group". */
const reported = (statement: Statement) => renderSentence(reportGroupSpeech(statement.sentence.tokens));

/** "the voice recognition", "Jeff Buckley": a topic's name as the object of a sentence. */
function withArticle(name: string): string {
  if (/^\p{Lu}/u.test(name) && !/^\p{Lu}\p{Ll}+(\s\p{Ll}|$)/u.test(name)) return name; // a name or an initialism
  const lower = lowerFirst(name);
  return /^\p{Lu}/u.test(lower) ? lower : `the ${lower}`;
}

const listOf = (items: string[]) => (items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/** "The meeting was about the a, the b and the c." from the topics' names: what the meeting was about, first. */
function topicsSentence(topics: TopicItem[]): CitedItem[] {
  if (topics.length === 0) return [];
  return [{ text: `The meeting was about ${listOf(topics.map((t) => withArticle(t.text)))}.`, segmentIds: topics.flatMap((t) => t.segmentIds) }];
}

/** What the meeting settled and left to do, as the summary reports it. */
export type SummaryFacts = { decisions: Statement[]; actionItems: ActionItemDraft[]; openQuestions: Statement[] };

/** Who spoke in the meeting, and when: the summary tells who led each topic. */
export type SummaryContext = { segments: NotesSegment[]; speakers: NotesSpeaker[] };

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
/** "we", "our": in an owner's task they would speak for the group the summary speaks of. */
const GROUP_PERSON: ReadonlySet<string> = new Set(['we', 'us', 'our', 'ours', "we're", "we'll", "we've", "we'd"]);
const lowerFirst = (text: string) => (/^\p{Lu}\p{Ll}/u.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text);

/** "Dana Kim will book the venue by Friday." — who will do what by when, in the third person. */
export function actionSentence(item: ActionItemDraft): string {
  const what = lowerFirst(item.text.replace(/[.!?]+$/u, ''));
  const when = item.dueText ? ` ${item.dueText}` : '';
  return item.assignee ? `${item.assignee} will ${what}${when}.` : `Still without an owner: ${what}${when}.`;
}

/** Several actions of one owner in one sentence: "Dana Kim will book the venue by Friday and draft the release." */
function actionSentences(items: ActionItemDraft[]): CitedItem[] {
  const byOwner = new Map<string, ActionItemDraft[]>();
  for (const item of items) byOwner.set(item.assignee ?? '', [...(byOwner.get(item.assignee ?? '') ?? []), item]);
  return [...byOwner.entries()].map(([owner, list]) => {
    const segmentIds = list.flatMap((item) => item.segmentIds);
    const parts = list.map((item) => actionSentence({ ...item, assignee: owner || null }).replace(/\.$/u, ''));
    if (!owner || parts.length === 1) return { text: `${parts.join('. ')}.`, segmentIds };
    const tails = parts.map((p, i) => (i === 0 ? p : p.slice(`${owner} will `.length)));
    return { text: `${tails.slice(0, -1).join(', ')} and ${tails.at(-1)}.`, segmentIds };
  });
}

/**
 * A decision as the minutes state it: "We decided the launch is in March" → "The group decided the
 * launch is in March", "Let's go with the rubber case" → "The group decided to go with the rubber
 * case"; what was said before the decision ("Okay, so…") is left out. Undefined when the sentence
 * does not put the decision in words the minutes can report.
 */
export function decisionSentence(statement: Statement): string | undefined {
  const text = reported(statement).replace(/[.!?]+$/u, '');
  const rules: Array<[RegExp, (m: RegExpExecArray) => string]> = [
    [/\b(?:the group|they)(?: have)?(?: finally| just| all| now| already| both)? (decided|agreed|chose|settled|concluded)\b(.*)$/i, (m) => `${m[1]}${m[2]}`],
    [/\blet(?:'s| us) (go|stick|settle) (with|for|on)\b(.*)$/i, (m) => `decided to ${m[1]} ${m[2]}${m[3]}`],
    [/\b(?:the group|they) (?:are|will) (?:going )?(go|stick|going)(?: to go)? (with|for)\b(.*)$/i, (m) => `decided to go ${m[2]}${m[3]}`],
    [/\bso (?:the group|they) will (use|have|make|take|keep)\b(.*)$/i, (m) => `decided to ${m[1]}${m[2]}`],
    [/\b(?:it|that)(?:'s| is| was) (?:decided|agreed|settled)(?: that)?\b(.*)$/i, (m) => `decided${m[1]}`],
    [/\b(?:the|their) (?:final )?(?:decision|conclusion) (?:is|was)(?: that)?\b(.*)$/i, (m) => `decided${m[1]}`],
  ];
  for (const [pattern, write] of rules) {
    const match = pattern.exec(text);
    if (!match) continue;
    const what = write(match)
      .replace(/\s*[:,]\s*$/u, '')
      .replace(/^(\w+) ?: ?/u, '$1 ');
    // "The group decided, 'cause it's not on their list" says nothing of what was decided.
    return /^\w+\s*[,;.]/u.test(what) || what.split(/\s+/).length < 4 ? undefined : `The group ${what}.`;
  }
  return undefined;
}

/** "First, Marketing talked about the user requirements." — each topic, who led it, in order. */
function topicSentences(topics: TopicItem[], context: SummaryContext | undefined): Array<CitedItem & { startMs: number }> {
  if (topics.length < 2) return [];
  const name = new Map(context?.speakers.map((s) => [s.id, s.name ?? s.label]) ?? []);
  return topics.flatMap((topic, i) => {
    const words = new Map<string, number>();
    const firstSaid = new Map<string, string>();
    let all = 0;
    for (const segment of context?.segments ?? []) {
      if (segment.startMs < topic.startMs || segment.startMs >= topic.endMs || segment.speakerId === null) continue;
      const count = segment.text.split(/\s+/).length;
      words.set(segment.speakerId, (words.get(segment.speakerId) ?? 0) + count);
      if (!firstSaid.has(segment.speakerId)) firstSaid.set(segment.speakerId, segment.id);
      all += count;
    }
    const [lead, said] = [...words].sort((a, b) => b[1] - a[1])[0] ?? [null, 0];
    const who = lead !== null && said >= all * LEAD_SHARE ? name.get(lead) : undefined;
    const opener = i === 0 ? 'First' : i === topics.length - 1 ? 'Finally' : i === 1 ? 'Then' : 'Next';
    // A topic the whole group talked through is in the opening sentence already: only who led one adds to it.
    if (!who) return [];
    // Cites where the topic was named and where its leader spoke first in it.
    const segmentIds = [...new Set([...topic.segmentIds, firstSaid.get(lead!)!])];
    return [{ startMs: topic.startMs, text: `${opener}, ${who} talked about ${withArticle(topic.text)}.`, segmentIds }];
  });
}
/** A topic is led by the one who said at least this share of its words; else the group discussed it. */
const LEAD_SHARE = 0.5;

/**
 * The summary's sentences, each citing the segments it was written from, in the third person from what the meeting produced: what it was about (its topics),
 * each topic in turn with who led it and its most central statement, what the group decided, who
 * will do what by when, and what was left open; the statements fill what the facts leave of the
 * word budget. Statements in the first person ("I think…") are left to the key points: the summary
 * speaks of the group and of people by name.
 */
export function writeSummary(ranked: Statement[], space: TermSpace, topics: TopicItem[], facts?: SummaryFacts, context?: SummaryContext): CitedItem[] {
  const opening = topicsSentence(topics);
  const cite = (s: Statement): CitedItem => ({ text: '', segmentIds: [s.sentence.segmentId] });
  const thirdPerson = (s: Statement) => !s.sentence.tokens.some((t) => SPOKEN_PERSON.has(t.lower));
  const decided = (facts?.decisions ?? []).filter(thirdPerson).flatMap((d) => {
    const text = decisionSentence(d);
    return text ? [{ ...cite(d), text }] : [];
  });
  // Who will do what: the items with an owner, short enough to read in a sentence (the rest are in the list).
  const readable = (a: ActionItemDraft) => !(a.text.toLowerCase().match(/[\p{L}']+/gu) ?? []).some((w) => SPOKEN_PERSON.has(w) || GROUP_PERSON.has(w));
  const actions = actionSentences((facts?.actionItems ?? []).filter((a) => a.assignee !== null && a.text.split(/\s+/).length <= ACTION_WORDS && readable(a)));
  const open = (facts?.openQuestions ?? [])
    .filter((q) => thirdPerson(q) && q.sentence.wordCount <= ACTION_WORDS)
    .slice(0, 2)
    .map((q) => ({ ...cite(q), text: reported(q) }));
  const words = (list: CitedItem[]) => list.reduce((n, t) => n + t.text.split(/\s+/).length, 0);
  const factsText: CitedItem[] = [];
  for (const sentence of [...decided, ...actions, ...open]) if (words([...opening, ...factsText, sentence]) <= SUMMARY_WORDS.max - 20) factsText.push(sentence);
  const led = topicSentences(topics, context).filter((_, i, all) => words([...opening, ...factsText, ...all.slice(0, i + 1)]) <= SUMMARY_WORDS.max - 30);
  const used = new Set([...(facts?.decisions ?? []), ...(facts?.openQuestions ?? [])].map((s) => s.sentence.index));
  const cited = new Set((facts?.actionItems ?? []).flatMap((a) => a.segmentIds));
  const speakerName = new Map(context?.speakers.map((s) => [s.id, s.name ?? s.label]) ?? []);
  const opinions = new Map<number, string>();
  for (const s of ranked) {
    const said = opinionSentence(s, speakerName.get(s.sentence.speakerId ?? ''));
    if (said) opinions.set(s.sentence.index, said);
  }
  const write = (s: Statement) => opinions.get(s.sentence.index) ?? reported(s);
  const candidates = ranked.filter(
    (s) =>
      !used.has(s.sentence.index) &&
      !cited.has(s.sentence.segmentId) &&
      (opinions.has(s.sentence.index) || (thirdPerson(s) && hasSubject(s))) &&
      readsWell(s) &&
      !SAYS_NOTHING_DECIDED.test(reported(s)),
  );
  const budget = SUMMARY_WORDS.target - words([...opening, ...factsText, ...led]);
  const startOf = (s: Statement) => context?.segments[s.sentence.segmentIndex]?.startMs ?? 0;
  // Each topic told gets its most central statement first, so no topic is a bare heading; the rest of the budget goes to the best of all.
  const firsts = led.flatMap((t, i) => {
    const end = led[i + 1]?.startMs ?? Infinity;
    return candidates.find((s) => startOf(s) >= t.startMs && startOf(s) < end && s.sentence.wordCount <= budget / Math.max(1, led.length)) ?? [];
  });
  const rest = candidates.filter((s) => !firsts.includes(s));
  const picked = budget > 0 ? pickDiverse([...firsts, ...rest], space, { limit: Infinity, maxWords: budget, maxSimilarity: NEAR_DUPLICATE }) : [];
  const story = [
    ...led.map((t, i) => ({ at: t.startMs, order: -1, i, item: { text: t.text, segmentIds: t.segmentIds } })),
    ...picked.map((s) => ({ at: startOf(s), order: s.sentence.index, i: 0, item: { ...cite(s), text: write(s) } })),
  ].sort((a, b) => a.at - b.at || a.order - b.order || a.i - b.i);
  if (story.length === 0 && factsText.length === 0) return [];
  return [...opening, ...story.map((s) => s.item), ...factsText];
}

/** "I think…" said by Dana Kim, as the minutes report it: "Dana Kim thought…". */
const OPINION_VERBS: Readonly<Record<string, string>> = {
  think: 'thought',
  guess: 'guessed',
  believe: 'believed',
  suppose: 'supposed',
  reckon: 'reckoned',
  feel: 'felt',
};

/**
 * A view given in the first person, reported in the third: "I think we should use rubber" by Maya
 * Chen is "Maya Chen thought the group should use rubber". Only when the rest of it speaks of no one
 * in the first or second person, and the speaker has a name or label to report it by.
 */
function opinionSentence(statement: Statement, speaker: string | undefined): string | undefined {
  const tokens = statement.sentence.tokens;
  const verb = OPINION_VERBS[tokens[1]?.lemma ?? ''];
  if (!speaker || tokens[0]?.lower !== 'i' || !verb) return undefined;
  const rest = tokens.slice(tokens[2]?.lower === 'that' ? 3 : 2);
  if (rest.length < 4 || rest.some((t) => SPOKEN_PERSON.has(t.lower)) || rest[0]?.pos === 'PUNCT') return undefined;
  return `${speaker} ${verb} ${lowerFirst(renderSentence(reportGroupSpeech(rest)))}`;
}

/** "The group decided, 'cause it's not on their list.": a decision announced with nothing decided in it. */
const SAYS_NOTHING_DECIDED = /^The group (?:decided|agreed)\s*[,;:.]/u;

/** Shorter statements are asides ("The group need to address they want.") more often than points. */
const MIN_SUMMARY_WORDS = 8;
function readsWell(statement: Statement): boolean {
  const { wordCount } = statement.sentence;
  return wordCount >= MIN_SUMMARY_WORDS;
}

/**
 * Part-of-speech tags a sentence's subject starts with: "Should just wait…" or "Have a think…" has
 * none, and a bare noun ("Line thing may be…", "Material, the group…") or a wh-word ("Again who
 * wants…") opens a fragment more often than a statement.
 */
const SUBJECT_START: ReadonlySet<string> = new Set(['DET', 'PRON', 'PROPN', 'NUM']);
const WH_WORDS: ReadonlySet<string> = new Set(['who', 'what', 'which', 'where', 'when', 'why', 'how']);
function hasSubject(statement: Statement): boolean {
  const first = statement.sentence.tokens.find((t) => t.pos !== 'ADV' && t.pos !== 'PUNCT');
  return first !== undefined && SUBJECT_START.has(first.pos) && !WH_WORDS.has(first.lower);
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
