import type { Token } from './speech-nlp.ts';
import type { Sentence } from './split-sentences.ts';
import { compilePattern, compilePatterns, matchAny, matchAt, wordsOf, type Word } from './words.ts';

/**
 * Commitments and requests in a sentence: "I'll send…", "we're going to…", "Sam will…", "can you
 * book…, Maria?", "action item: …". Reports of the past ("I sent"), questions ("will Sam send
 * it?"), hedged maybes ("maybe I'll…", "I might…", "if…") and negations ("I won't…") are not.
 */
export type Commitment = {
  /** Who said they would, or was asked: the speaker, the group, someone named, or nobody said. */
  kind: 'self' | 'group' | 'named' | 'addressed' | 'unassigned';
  /** The name said for `named` and `addressed` (null when a request names nobody). */
  name: string | null;
  /** The action: token range [first, last] from its verb to the end of its clause. */
  first: number;
  last: number;
};

const HEDGES: ReadonlySet<string> = new Set(['maybe', 'perhaps', 'might', 'probably', 'possibly', 'guess', 'if', 'unless', 'whether', 'hopefully', 'suppose']);
const NEGATIONS: ReadonlySet<string> = new Set(['not', "n't", 'never']);
const FUTURE = compilePatterns([["'ll"], ['will'], ["am|'m|are|'re|is|'s", 'going', 'to'], ["am|'m|are|'re|is|'s", 'gonna']]);
/** "I need to…" and "Sam has to…" commit someone; see commitmentAt for "we" and "you". */
const DUTY = compilePatterns([['need|needs|have|has', 'to'], ["'ve|has|'s", 'got', 'to'], ['must']]);
const REQUESTS = compilePatterns([
  ['can|could|will', 'you', 'please?'],
  ['would', 'you', 'please?'],
  ['would', 'you', 'mind'],
  ['please'],
  ['i', "'d|would", 'like', 'you', 'to'],
  ['i', 'want|need', 'you', 'to'],
]);
const GROUP_DESCRIBING: ReadonlySet<string> = new Set(['have', 'use', 'make', 'need', 'look', 'target', 'focus', 'aim', 'keep', 'try', 'get', 'do']);
/** "What we'll do is…", "all we need to do is…", "how I'm going to…": the subject of a clause inside another, not a commitment. */
const EMBEDDING: ReadonlySet<string> = new Set(['all', 'what', 'which', 'how', 'where', 'when', 'why', 'whatever', 'that']);
const ADVERBS = compilePattern(['just|also|then|definitely|first|now|quickly|still|both|all|actually|really?']);
const HAVE_TO = compilePattern(['have|need', 'to']);
const LET_ME = compilePattern(['let', 'me']);
/** Verbs that run the meeting itself ("I'll go first", "we'll talk about…"), not work to do after it. */
const PROCEDURAL: ReadonlySet<string> = new Set([
  'be',
  'tell',
  'hear',
  'repeat',
  'wrap',
  'go',
  'come',
  'start',
  'begin',
  'continue',
  'stop',
  'talk',
  'speak',
  'say',
  'show',
  'present',
  'explain',
  'see',
  'wait',
  'move',
  'pass',
  'hand',
  'sit',
  'leave',
  'finish',
  'skip',
  'keep',
  'think',
  'know',
  'want',
  'like',
  'need',
  'get',
  'discuss',
]);
const CLAUSE_BREAKS: ReadonlySet<string> = new Set(['but', 'so', 'because', 'cause', "'cause", 'if', 'when', 'unless', 'although', 'while', 'whereas']);

/** A person's name as the tagger sees it: a capitalised proper noun, not "I" and not an initialism ("TVs"). */
const isName = (t: Token | undefined) => t !== undefined && t.pos === 'PROPN' && /^\p{Lu}\p{Ll}/u.test(t.text);

/**
 * The verb an action starts with at word `at`, skipping adverbs and "have to"; -1 when there is none
 * to act on. `anyVerb` lets a running-the-meeting verb through (the "do" of "what I'll do is…").
 */
function actionVerbAt(words: Word[], tokens: Token[], at: number, anyVerb = false): number {
  const adverbs = matchAt(words, at, ADVERBS);
  const i = Math.max(adverbs, matchAt(words, adverbs, HAVE_TO));
  const token = tokens[words[i]?.token ?? -1];
  if (!token || NEGATIONS.has(words[i]!.w) || token.pos === 'PUNCT') return -1;
  // After "will" or "can you" comes a verb, whatever the tagger says: wink reads "draft" or "email" there as a noun at times.
  const isVerb =
    token.pos === 'VERB' || (token.pos === 'NOUN' && token.lower === token.lemma) || (token.pos === 'AUX' && (token.lemma === 'do' || token.lemma === 'have'));
  return isVerb && (anyVerb || !PROCEDURAL.has(token.lemma)) ? i : -1;
}

/** The last token of the clause an action starting at `first` belongs to. */
function clauseEnd(tokens: Token[], first: number): number {
  let last = first;
  for (let i = first + 1; i < tokens.length; i++) {
    const t = tokens[i]!;
    // A hyphen inside a word ("follow-up") joins, it does not end the clause.
    const inWord = t.text === '-' && t.space === '' && tokens[i + 1]?.space === '';
    if ((t.pos === 'PUNCT' && !inWord) || CLAUSE_BREAKS.has(t.lower)) break;
    if (t.lower === 'and' && /^(i|we|you|then|so)$/.test(tokens[i + 1]?.lower ?? '')) break;
    // A restart ("I'll put it I'll put them there") begins a clause of its own.
    if (/^(i|we|you)$/.test(t.lower) && /^('ll|will|'m|am|'re|are|can|could|should|must|need|have)$/.test(tokens[i + 1]?.lower ?? '')) break;
    last = i;
  }
  return last;
}

/** The name a speaker calls someone by in a request: "Maria, can you…" or "…, Maria?". */
function vocative(tokens: Token[]): string | null {
  const words = tokens.filter((t) => t.pos !== 'PUNCT' || t.text === ',');
  const last = words.length - 1;
  if (isName(words[last]) && words[last - 1]?.text === ',') return words[last]!.text;
  if (isName(words[0]) && words[1]?.text === ',') return words[0]!.text;
  return null;
}

/** The person a subject names, as said: a run of proper nouns ending just before word `at`. */
function subjectBefore(words: Word[], tokens: Token[], at: number): Pick<Commitment, 'kind' | 'name'> | undefined {
  const subject = words[at - 1]?.w;
  if (subject === 'i') return { kind: 'self', name: null };
  if (subject === 'we') return { kind: 'group', name: null };
  if (subject === 'you') return { kind: 'addressed', name: vocative(tokens) };
  const names: string[] = [];
  for (let i = at - 1; i >= 0 && isName(tokens[words[i]!.token]); i--) names.unshift(tokens[words[i]!.token]!.text);
  return names.length > 0 ? { kind: 'named', name: names.join(' ') } : undefined;
}

type Found = { who: Pick<Commitment, 'kind' | 'name'>; verbAt: number };

/**
 * "I'll…", "Sam is going to…", "I need to…" from the modal at word `at`. Inside another clause only as
 * a pseudo-cleft ("what I'm going to do is draft…"), whose action follows "is".
 */
function futureAt(words: Word[], tokens: Token[], at: number, future: number, duty: number): Found | undefined {
  const who = subjectBefore(words, tokens, at);
  // "We need to…" is how a meeting lists what is open and "you have to…" is the generic you: no one committed.
  if (!who || ((who.kind === 'group' || who.kind === 'addressed') && future < 0)) return undefined;
  const modalEnd = Math.max(future, duty);
  let verbAt = actionVerbAt(words, tokens, modalEnd);
  if (EMBEDDING.has(words[at - 2]?.w ?? '')) {
    const doAt = actionVerbAt(words, tokens, modalEnd, true);
    verbAt = words[doAt]?.w === 'do' && words[doAt + 1]?.w === 'is' ? actionVerbAt(words, tokens, doAt + 2) : -1;
  }
  // "We'll have a screen…", "we'll use rubber": what the group's product will be, not work someone takes on.
  if (who.kind === 'group' && GROUP_DESCRIBING.has(tokens[words[verbAt]?.token ?? -1]?.lemma ?? '')) return undefined;
  return { who, verbAt };
}

/** "Dana to schedule a follow-up…": a name opening the sentence, then "to" and the action, as minutes write it. */
function minutesStyleAt(words: Word[], tokens: Token[], at: number): Found | undefined {
  const who = subjectBefore(words, tokens, at);
  if (who?.kind !== 'named' || who.name === null || who.name.split(' ').length !== at) return undefined;
  return { who, verbAt: actionVerbAt(words, tokens, at + 1) };
}

function commitmentAt(words: Word[], tokens: Token[], at: number, isQuestion: boolean): Commitment | undefined {
  const request = matchAny(words, at, REQUESTS);
  const future = isQuestion ? -1 : matchAny(words, at, FUTURE);
  const duty = isQuestion ? -1 : matchAny(words, at, DUTY);
  let found: Found | undefined;
  if (request >= 0) found = { who: { kind: 'addressed', name: vocative(tokens) }, verbAt: actionVerbAt(words, tokens, request) };
  else if (future >= 0 || duty >= 0) found = futureAt(words, tokens, at, future, duty);
  else if (!isQuestion && at === 0 && matchAt(words, at, LET_ME) >= 0) found = { who: { kind: 'self', name: null }, verbAt: actionVerbAt(words, tokens, 2) };
  else if (!isQuestion && words[at]?.w === 'to') found = minutesStyleAt(words, tokens, at);
  if (!found || found.verbAt < 0) return undefined;
  const first = words[found.verbAt]!.token;
  return { ...found.who, first, last: clauseEnd(tokens, first) };
}

/** "Action item: …" / "action item for Sam: …": whatever follows is the item, owned by the name given. */
function explicitItem(words: Word[], tokens: Token[]): Commitment | undefined {
  const at = words.findIndex((w, i) => w.w === 'action' && /^items?$/.test(words[i + 1]?.w ?? ''));
  if (at < 0) return undefined;
  let i = at + 2;
  let name: string | null = null;
  if (words[i]?.w === 'for' && isName(tokens[words[i + 1]?.token ?? -1])) {
    name = tokens[words[i + 1]!.token]!.text;
    i += 2;
  }
  while (i < words.length && (words[i]!.w === ':' || words[i]!.w === 'is' || words[i]!.w === ',')) i++;
  const inner = findInClause(words, tokens, i, false);
  if (inner) return inner;
  const first = words[i]?.token;
  if (first === undefined) return undefined;
  return { kind: name ? 'named' : 'unassigned', name, first, last: clauseEnd(tokens, first) };
}

function findInClause(words: Word[], tokens: Token[], from: number, isQuestion: boolean): Commitment | undefined {
  for (let at = from; at < words.length; at++) {
    const found = commitmentAt(words, tokens, at, isQuestion);
    if (found) return found;
  }
  return undefined;
}

/** The commitments of one sentence, in order; none when it hedges. */
export function findCommitments(sentence: Sentence): Commitment[] {
  const words = wordsOf(sentence.tokens);
  if (words.some((w) => HEDGES.has(w.w))) return [];
  const explicit = explicitItem(words, sentence.tokens);
  if (explicit) return [explicit];
  const found: Commitment[] = [];
  for (let at = 0; at < words.length; at++) {
    const commitment = commitmentAt(words, sentence.tokens, at, sentence.isQuestion);
    if (!commitment) continue;
    found.push(commitment);
    while (at < words.length && words[at]!.token <= commitment.last) at++;
  }
  return found;
}
