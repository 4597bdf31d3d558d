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
  return (
    text
      .split(/\s+/)
      .filter(Boolean)
      // A later word's h is lost in the run of speech ("quilt her" is said as "quilter").
      .map((word, i) => wordSound(i === 0 ? spellingKey(word) : spellingKey(word).replace(/^h(?=[aeiou])/, ''), i === 0))
      .join('')
      .replace(/(.)\1+/g, '$1')
  );
}

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

type Candidate = { from: number; to: number; term: Term; score: number };

/**
 * How close a stretch of words is to a term, lower is closer; undefined when it is not close enough
 * to correct. Exact spelling apart from case and spacing scores 0 (a multi-word term, or one whose
 * capitals matter, written the engine's way); otherwise both the spelling and the sound must agree.
 */
function closeness(stretch: Token[], text: string, term: Term, edgeWord: boolean): number | undefined {
  const key = stretch.map((t) => t.key).join('');
  const heard = text.slice(stretch[0]!.start, stretch.at(-1)!.end);
  if (heard === term.text) return undefined;
  if (key === term.key) {
    // Only the spelling's form differs: worth writing the vocabulary's way when the term has
    // capitals or several words (a name); a lone lower-case word is left as the engine wrote it.
    return /\p{Lu}/u.test(term.text) || term.words > 1 ? 0 : undefined;
  }
  if (!term.fuzzy) return undefined;
  const longest = Math.max(key.length, term.key.length);
  if (Math.min(key.length, term.key.length) / longest < 0.6) return undefined;
  const spelling = editDistance(key, term.key) / longest;
  const sound = soundKey(stretch.map((t) => t.text).join(' '));
  if (sound === '' || sound[0] !== term.sound[0]) return undefined;
  const soundDistance = editDistance(sound, term.sound);
  if (edgeWord) return soundDistance === 0 && spelling <= 0.25 ? spelling + 0.05 : undefined;
  if (soundDistance === 0 && spelling <= 0.34) return spelling;
  // A longer term said the same way may be spelled further off ("coulter" for "Quilter"): its sound
  // key is long enough that an ordinary word rarely shares it.
  if (soundDistance === 0 && spelling <= 0.45 && term.key.length >= 6 && term.sound.length >= 4) return spelling + 0.05;
  if (soundDistance === 1 && spelling <= 0.2 && term.key.length >= 6) return spelling + 0.1;
  return undefined;
}

/**
 * The line with near-misses of the terms corrected, and each correction (the original kept, so it
 * can be shown and undone). Stretches never cross punctuation and never overlap; the closest match wins.
 */
export function correctLine(text: string, terms: readonly string[]): { text: string; corrections: VocabularyCorrection[] } {
  const prepared = prepare(terms);
  if (prepared.length === 0 || text.trim() === '') return { text, corrections: [] };
  const tokens = tokenize(text);
  const candidates: Candidate[] = [];
  for (const term of prepared) {
    const sizes = new Set([Math.max(1, term.words - 1), term.words, term.words + 1]);
    for (const size of sizes) {
      for (let from = 0; from + size <= tokens.length; from++) {
        const stretch = tokens.slice(from, from + size);
        if (crossesPunctuation(text, stretch)) continue;
        const edgeWord = (!term.firstIsFunction && FUNCTION_WORDS.has(stretch[0]!.key)) || (!term.lastIsFunction && FUNCTION_WORDS.has(stretch.at(-1)!.key));
        if (edgeWord && size === 1) continue;
        // Already another term of the vocabulary: left as it is.
        if (prepared.some((other) => other !== term && other.key === stretch.map((t) => t.key).join(''))) continue;
        const score = closeness(stretch, text, term, edgeWord);
        // A longer term that matches as closely explains more of what was heard ("Anika Okafor" over "Okafor").
        if (score !== undefined) candidates.push({ from, to: from + size, term, score: score - 0.05 * term.words });
      }
    }
  }
  // Closest first; on a tie the longer stretch (the whole of "quilt her", not "quilt").
  candidates.sort((a, b) => a.score - b.score || b.to - b.from - (a.to - a.from) || a.from - b.from);
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
  return segments.map((segment) => {
    const { text, corrections } = correctLine(segment.text, terms);
    return { ...segment, text, corrections };
  });
}
