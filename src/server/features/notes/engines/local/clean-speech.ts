import type { Token } from './speech-nlp.ts';

/**
 * Turns a spoken sentence's tokens into what a note-taker would write: without hesitations (um, uh),
 * back-channel words (yeah, okay), parenthetical "you know" / "I mean", stuttered repeats ("I I
 * think", "the main the main focus"), broken-off words ("targ target") and the discourse markers
 * that open a turn ("So", "And", "Well").
 */
const FILLERS: ReadonlySet<string> = new Set(['um', 'umm', 'uhm', 'uh', 'er', 'erm', 'ah', 'eh', 'hmm', 'hm', 'mm', 'mmm', 'mhm', 'huh', 'uh-huh', 'mm-hmm']);
const BACK_CHANNEL: ReadonlySet<string> = new Set(['yeah', 'yep', 'yup', 'okay', 'ok', 'kay', "'kay", 'alright', 'oh']);
const OPENERS: ReadonlySet<string> = new Set([
  'and',
  'so',
  'but',
  'well',
  'right',
  'anyway',
  'anyways',
  'now',
  'then',
  'also',
  'like',
  'because',
  'cause',
  "'cause",
  'cos',
]);
const PARENTHETICALS: ReadonlyArray<readonly [string, string]> = [
  ['you', 'know'],
  ['i', 'mean'],
  ['you', 'see'],
];
/** Words a spoken sentence trails off on, joining it to nothing: "…, so.", "… and." ("like" may end one: "what it looks like"). */
const TRAILING: ReadonlySet<string> = new Set(['so', 'and', 'but', 'or', 'because', 'cause', "'cause"]);
/** Single letters that are words; any other lone letter is a sound broken off ("w I c we can"). */
const ONE_LETTER_WORDS: ReadonlySet<string> = new Set(['a', 'i']);
const MAX_REPEAT = 4;

const isWord = (t: Token) => t.pos !== 'PUNCT' && t.pos !== 'SYM' && /[\p{L}\p{N}]/u.test(t.text);
const isClauseEnd = (t: Token | undefined) => t === undefined || t.pos === 'PUNCT';

function isFragment(token: Token, next: Token | undefined): boolean {
  if (!/^\p{L}+$/u.test(token.text)) return false;
  if (token.lower.length === 1) return !ONE_LETTER_WORDS.has(token.lower);
  // "targ target", "sh shared": a non-word prefix of the word said next. Stop words are spared:
  // "to together" or "in into" are two words.
  return next !== undefined && !token.isStop && next.lower.length > token.lower.length && next.lower.startsWith(token.lower);
}

function dropParentheticals(tokens: Token[]): Token[] {
  const keep = tokens.map(() => true);
  tokens.forEach((token, i) => {
    const next = tokens[i + 1];
    if (!next || !PARENTHETICALS.some(([a, b]) => token.lower === a && next.lower === b)) return;
    // Only when set off by a pause: "you know what we need" keeps its meaning, "…, you know, …" has none.
    if (tokens[i - 1]?.text === ',' || isClauseEnd(tokens[i + 2])) keep[i] = keep[i + 1] = false;
  });
  return tokens.filter((_, i) => keep[i]);
}

/** The first pair of identical runs of up to MAX_REPEAT words, longest first: [start of the first, start of the second]. */
function findRepeat(tokens: Token[], words: number[]): [number, number] | undefined {
  for (let n = MAX_REPEAT; n >= 1; n--) {
    for (let w = 0; w + 2 * n <= words.length; w++) {
      let same = 0;
      while (same < n && tokens[words[w + same]!]!.lower === tokens[words[w + n + same]!]!.lower) same++;
      // A restart may break off in its last word: "pump up the vo pump up the volume".
      const brokenOff = same === n - 1 && n > 1 && tokens[words[w + n + same]!]!.lower.startsWith(tokens[words[w + same]!]!.lower);
      if (same === n || brokenOff) return [words[w]!, words[w + n]!];
    }
  }
  return undefined;
}

/** Drops the first of two identical runs of words ("the main the main focus"), punctuation between ignored. */
function dropRepeats(tokens: Token[]): Token[] {
  let current = tokens;
  for (let repeat = findRepeat(current, wordIndexes(current)); repeat; repeat = findRepeat(current, wordIndexes(current))) {
    current = [...current.slice(0, repeat[0]), ...current.slice(repeat[1])];
  }
  return current;
}

const wordIndexes = (tokens: Token[]) => tokens.flatMap((t, i) => (isWord(t) ? [i] : []));

function dropOpeners(tokens: Token[]): Token[] {
  let start = 0;
  while (start < tokens.length) {
    const token = tokens[start]!;
    if (token.pos === 'PUNCT' || OPENERS.has(token.lower)) start++;
    else break;
  }
  return tokens.slice(start);
}

/** Punctuation left stranded by the removals: doubled commas, a comma before the full stop, a lone dash. */
function tidyPunctuation(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (const token of tokens) {
    const previous = out.at(-1);
    if (token.pos === 'PUNCT' && (previous === undefined || previous.pos === 'PUNCT')) {
      if (previous && /^[.?!]$/.test(token.text)) out[out.length - 1] = token;
      continue;
    }
    out.push(token);
  }
  while (out.length > 0 && out.at(-1)!.pos === 'PUNCT' && !/^[.?!]$/.test(out.at(-1)!.text)) out.pop();
  // A sentence trailing off on a joining word ("…their remote control, so.") ends before it.
  const end = out.at(-1)?.pos === 'PUNCT' ? out.length - 1 : out.length;
  let cut = end;
  while (cut > 1 && TRAILING.has(out[cut - 1]!.lower)) cut--;
  while (cut > 1 && cut < end && out[cut - 1]!.pos === 'PUNCT') cut--;
  return cut === end ? out : [...out.slice(0, cut), ...out.slice(end)];
}

/** The tokens of a spoken sentence without its disfluencies; empty when nothing but them was said. */
export function cleanSpeech(tokens: Token[]): Token[] {
  // A dash set off by spaces is a pause; one inside a word ("touch-pad", "follow-up") is spelling,
  // and dropping it would write a word nobody said.
  const inWord = (i: number) => tokens[i]!.space === '' && tokens[i + 1]?.space === '' && /\p{L}/u.test(tokens[i - 1]?.text ?? '');
  const spoken = tokens.filter((t, i) => !FILLERS.has(t.lower) && !BACK_CHANNEL.has(t.lower) && (!/^[-–—]+$/.test(t.text) || inWord(i)));
  const whole = spoken.filter((t, i) => !isFragment(t, spoken.slice(i + 1).find(isWord)));
  const cleaned = tidyPunctuation(dropOpeners(dropRepeats(dropParentheticals(whole))));
  return cleaned.some(isWord) ? cleaned : [];
}

/** Cleaned tokens as a written sentence: capitalised, "i" as "I", ending in a full stop or question mark. */
export function renderSentence(tokens: Token[]): string {
  const text = tokens
    // A word written against a comma ("decided,cause") lost the mark between them ("decided, 'cause"): it gets its space back.
    .map(
      (t, i) => `${i === 0 ? '' : t.space === '' && !(t.pos !== 'PUNCT' && /^[,;:]$/.test(tokens[i - 1]!.text)) ? '' : ' '}${t.lower === 'i' ? 'I' : t.text}`,
    )
    .join('')
    .trim();
  if (text === '') return '';
  const capitalised = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.?!]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}
