/**
 * Near-misses of custom vocabulary terms corrected in a transcript line after recognition: "quilt
 * her" → "Quilter", "okay for" → "Okafor", "parlay" → "Parley". A stretch of one to a term's words
 * plus one is compared with each term by spelling (edit distance) and by sound (a Metaphone-like
 * key); only close matches on both counts are corrected, since a wrong correction is worse than a
 * missed one: every engine already gets most words right, and a person reads the result.
 */

export type VocabularyCorrection = {
  /** Where the term starts in the corrected line (UTF-16 index). */
  position: number;
  /** What the engine heard, as it was in the line. */
  original: string;
  /** The term as the vocabulary spells it. */
  corrected: string;
};

/** Terms shorter than this (letters and digits) are never matched fuzzily: too many words are near them. */
const MIN_FUZZY_LENGTH = 5;

/**
 * Function words: a stretch that starts or ends with one the term does not have is corrected only
 * when it is very close ("quilt her" → "Quilter", never "the parley" → "Parley").
 */
const FUNCTION_WORDS = new Set(
  (
    'a an the and or but if of to in on at by for with from as is are was were be been am do does did has have had not no so ' +
    'it its this that these those there here then than i me my we us our you your he him his she her they them their what who ' +
    'which when where why how all any can will would should could may might must shall just very too also up out off over into'
  ).split(' '),
);

type Token = { start: number; end: number; text: string; key: string };

/** Letters and digits only, lower case, accents dropped: how spelling is compared. */
export function spellingKey(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * A sound key in the spirit of Metaphone, per word then joined (so "quilt her" and "quilter" meet):
 * spellings of the same sound made one (ph/f, ck/k, soft c/s, q/k, x/ks, z/s), silent letters
 * dropped (initial kn/gn/wr, gh, h and w and y outside a vowel), vowels kept only as a word's first
 * sound of a stretch, doubles collapsed.
 */
export function soundKey(text: string): string {
  return joinSounds(
    text
      .split(/\s+/)
      .filter(Boolean)
      .map((word, i) => wordSoundAt(word, i === 0)),
  );
}

/** A word's sound as the first word of a stretch or a later one. */
function wordSoundAt(word: string, first: boolean): string {
  // A later word's h is lost in the run of speech ("quilt her" is said as "quilter").
  return wordSound(first ? spellingKey(word) : spellingKey(word).replace(/^h(?=[aeiou])/, ''), first);
}

const joinSounds = (sounds: string[]) => sounds.join('').replace(/(.)\1+/g, '$1');

/** `first`: the first word of a stretch, whose opening vowel counts (later words run on from the one before). */
function wordSound(word: string, first: boolean): string {
  if (word === '') return '';
  const w = word
    .replace(/^(kn|gn|pn)/, 'n')
    .replace(/^wr/, 'r')
    .replace(/^x/, 's')
    .replace(/^wh/, 'w')
    .replace(/tch/g, 'ch')
    .replace(/sch/g, 'sk')
    .replace(/(ch|sh)/g, 'X')
    .replace(/th/g, '0')
    .replace(/ph/g, 'f')
    .replace(/gh(?=[aeiou])/g, 'g')
    .replace(/gh/g, '')
    .replace(/ck/g, 'k')
    .replace(/dg(?=[eiy])/g, 'j')
    .replace(/c(?=[eiy])/g, 's')
    .replace(/c/g, 'k')
    .replace(/q/g, 'k')
    .replace(/x/g, 'ks')
    .replace(/z/g, 's')
    .replace(/v/g, 'f');
  let sounds = first && /^[aeiou]/.test(w) ? 'A' : '';
  for (let i = 0; i < w.length; i++) {
    const letter = w[i]!;
    if ('aeiou'.includes(letter)) continue;
    // h, w and y sound only before a vowel.
    const next = w[i + 1];
    if ('hwy'.includes(letter) && !(next !== undefined && 'aeiou'.includes(next))) continue;
    sounds += letter;
  }
  return sounds.replace(/(.)\1+/g, '$1').toUpperCase();
}

let rowA = new Uint16Array(64);
let rowB = new Uint16Array(64);

/**
 * editDistance when it is at most `max`, else any number above `max`: rows stop as soon as every
 * cell is past it, so most of a line's stretches, nowhere near a term, cost a row or two.
 */
function editDistanceWithin(a: string, b: string, max: number): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (b.length + 1 > rowA.length) {
    rowA = new Uint16Array(b.length + 1);
    rowB = new Uint16Array(b.length + 1);
  }
  let previous = rowA;
  let current = rowB;
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cell = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (ai === b.charCodeAt(j - 1) ? 0 : 1));
      current[j] = cell;
      if (cell < rowMin) rowMin = cell;
    }
    if (rowMin > max) return max + 1;
    [previous, current] = [current, previous];
  }
  return previous[b.length]!;
}

/** Levenshtein distance between two strings (by UTF-16 unit; keys are ASCII or plain letters). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

function tokenize(text: string): Token[] {
  return [...text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}\p{M}'’-]*/gu)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    text: m[0],
    key: spellingKey(m[0]),
  }));
}

type Term = { text: string; key: string; sound: string; words: number; fuzzy: boolean; firstIsFunction: boolean; lastIsFunction: boolean };

function prepare(terms: readonly string[]): Term[] {
  return terms
    .map((text) => {
      const words = text.split(/\s+/).filter(Boolean);
      const key = spellingKey(text);
      return {
        text,
        key,
        sound: soundKey(text),
        words: words.length,
        fuzzy: key.length >= MIN_FUZZY_LENGTH,
        firstIsFunction: FUNCTION_WORDS.has(spellingKey(words[0] ?? '')),
        lastIsFunction: FUNCTION_WORDS.has(spellingKey(words.at(-1) ?? '')),
      };
    })
    .filter((t) => t.key !== '');
}

/** `order`: the term's place in the vocabulary, which decides between equally close terms. */
type Candidate = { from: number; to: number; term: Term; order: number; score: number };

/** A stretch of a line's words, with what is compared of it worked out once for every term. */
type Stretch = { tokens: Token[]; key: string; heard: string; sound: () => string };

/**
 * How close a stretch of words is to a term, lower is closer; undefined when it is not close enough
 * to correct. Exact spelling apart from case and spacing scores 0 (a multi-word term, or one whose
 * capitals matter, written the engine's way); otherwise both the spelling and the sound must agree.
 */
function closeness(stretch: Stretch, term: Term, edgeWord: boolean): number | undefined {
  const { key } = stretch;
  if (stretch.heard === term.text) return undefined;
  if (key === term.key) {
    // Only the spelling's form differs: worth writing the vocabulary's way when the term has
    // capitals or several words (a name); a lone lower-case word is left as the engine wrote it.
    return /\p{Lu}/u.test(term.text) || term.words > 1 ? 0 : undefined;
  }
  if (!term.fuzzy) return undefined;
  const longest = Math.max(key.length, term.key.length);
  if (Math.min(key.length, term.key.length) / longest < 0.6) return undefined;
  // The cheap refusals first: a different first sound (the stretch's is worked out once for every term).
  const sound = stretch.sound();
  if (sound === '' || sound[0] !== term.sound[0]) return undefined;
  // Every match below is at most 0.45 of the longer key off in spelling: past that, nothing more is worked out.
  const spelling = editDistanceWithin(key, term.key, Math.floor(0.45 * longest)) / longest;
  if (spelling > 0.45) return undefined;
  const soundDistance = editDistance(sound, term.sound);
  if (edgeWord) return soundDistance === 0 && spelling <= 0.25 ? spelling + 0.05 : undefined;
  if (soundDistance === 0 && spelling <= 0.34) return spelling;
  // A longer term said the same way may be spelled further off ("coulter" for "Quilter"): its sound
  // key is long enough that an ordinary word rarely shares it.
  if (soundDistance === 0 && spelling <= 0.45 && term.key.length >= 6 && term.sound.length >= 4) return spelling + 0.05;
  if (soundDistance === 1 && spelling <= 0.2 && term.key.length >= 6) return spelling + 0.1;
  return undefined;
}

/** The terms made ready to compare, once for a whole transcript: by the sizes of stretch each is compared with. */
type PreparedTerms = {
  count: number;
  bySize: Map<number, { term: Term; order: number }[]>;
  termsWithKey: Map<string, number>;
  /** Each word's sound, as a stretch's first word and as a later one: a transcript says the same words again and again. */
  wordSounds: Map<string, [first: string, later: string]>;
};

function prepareTerms(terms: readonly string[]): PreparedTerms {
  const prepared = prepare(terms);
  const termsWithKey = new Map<string, number>();
  const bySize = new Map<number, { term: Term; order: number }[]>();
  prepared.forEach((term, order) => {
    termsWithKey.set(term.key, (termsWithKey.get(term.key) ?? 0) + 1);
    // A term is looked for in stretches of one word fewer to one word more than it has.
    for (const size of new Set([Math.max(1, term.words - 1), term.words, term.words + 1])) {
      const list = bySize.get(size) ?? [];
      list.push({ term, order });
      bySize.set(size, list);
    }
  });
  return { count: prepared.length, bySize, termsWithKey, wordSounds: new Map() };
}

/**
 * The line with near-misses of the terms corrected, and each correction (the original kept, so it
 * can be shown and undone). Stretches never cross punctuation and never overlap; the closest match wins.
 */
export function correctLine(text: string, terms: readonly string[]): { text: string; corrections: VocabularyCorrection[] } {
  return correctPrepared(text, prepareTerms(terms));
}

function correctPrepared(text: string, { count, bySize, termsWithKey, wordSounds }: PreparedTerms): { text: string; corrections: VocabularyCorrection[] } {
  if (count === 0 || text.trim() === '') return { text, corrections: [] };
  const tokens = tokenize(text);
  const soundsOf = (word: string) => {
    let sounds = wordSounds.get(word);
    if (!sounds) {
      sounds = [wordSoundAt(word, true), wordSoundAt(word, false)];
      wordSounds.set(word, sounds);
    }
    return sounds;
  };
  const candidates: Candidate[] = [];
  // Each stretch is worked out once (its key, words and sound) and compared with the terms of its size.
  for (const [size, terms] of bySize) {
    for (let from = 0; from + size <= tokens.length; from++) {
      const words = tokens.slice(from, from + size);
      if (crossesPunctuation(text, words)) continue;
      let sound: string | undefined;
      const stretch: Stretch = {
        tokens: words,
        key: words.map((t) => t.key).join(''),
        heard: text.slice(words[0]!.start, words.at(-1)!.end),
        sound: () => (sound ??= joinSounds(words.map((t, i) => soundsOf(t.text)[i === 0 ? 0 : 1]))),
      };
      const startsWithFunction = FUNCTION_WORDS.has(words[0]!.key);
      const endsWithFunction = FUNCTION_WORDS.has(words.at(-1)!.key);
      const sameKey = termsWithKey.get(stretch.key) ?? 0;
      for (const { term, order } of terms) {
        const edgeWord = (!term.firstIsFunction && startsWithFunction) || (!term.lastIsFunction && endsWithFunction);
        if (edgeWord && size === 1) continue;
        // Already another term of the vocabulary: left as it is.
        if (sameKey - (stretch.key === term.key ? 1 : 0) > 0) continue;
        const score = closeness(stretch, term, edgeWord);
        // A longer term that matches as closely explains more of what was heard ("Anika Okafor" over "Okafor").
        if (score !== undefined) candidates.push({ from, to: from + size, term, order, score: score - 0.05 * term.words });
      }
    }
  }
  // Closest first; on a tie the longer stretch (the whole of "quilt her", not "quilt").
  candidates.sort((a, b) => a.score - b.score || b.to - b.from - (a.to - a.from) || a.from - b.from || a.order - b.order);
  const taken: Candidate[] = [];
  for (const candidate of candidates) {
    if (taken.some((t) => candidate.from < t.to && t.from < candidate.to)) continue;
    taken.push(candidate);
  }
  taken.sort((a, b) => a.from - b.from);
  let corrected = '';
  let copiedUntil = 0;
  const corrections: VocabularyCorrection[] = [];
  for (const { from, to, term } of taken) {
    const start = tokens[from]!.start;
    const end = tokens[to - 1]!.end;
    corrected += text.slice(copiedUntil, start);
    corrections.push({ position: corrected.length, original: text.slice(start, end), corrected: term.text });
    corrected += term.text;
    copiedUntil = end;
  }
  corrected += text.slice(copiedUntil);
  return { text: corrected, corrections };
}

const crossesPunctuation = (text: string, stretch: Token[]) =>
  stretch.slice(1).some((token, i) => /[.,;:!?…"“”()]/.test(text.slice(stretch[i]!.end, token.start)));

/** Every line of a transcript corrected (see correctLine). */
export function correctSegments<S extends { text: string }>(segments: readonly S[], terms: readonly string[]): (S & { corrections: VocabularyCorrection[] })[] {
  const prepared = prepareTerms(terms);
  return segments.map((segment) => {
    const { text, corrections } = correctPrepared(segment.text, prepared);
    return { ...segment, text, corrections };
  });
}
