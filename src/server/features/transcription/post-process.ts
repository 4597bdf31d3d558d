import { meanConfidence, type RecognizedWord } from './engines/engine.ts';
import type { AttributedSegment } from './pipeline-types.ts';

/**
 * The last touch on recognised text, per the person's Recording settings: Filler Word Removal drops
 * hesitations (keeping every other word and its timing), Automatic Punctuation gives sentence case,
 * "I" and an end mark to engines that return bare lowercase words (pocketsphinx). Text that already
 * carries punctuation (Whisper-class engines) is left as the engine wrote it.
 */
export type PostProcessOptions = { punctuation: boolean; fillerWordRemoval: boolean };

/**
 * Hesitation sounds only. Words such as "like", "so", "well" or "you know" carry meaning too often
 * to drop without understanding the sentence, and "uh-huh" / "mm-hmm" are answers, not hesitations.
 */
const FILLERS = new Set(['um', 'umm', 'ummm', 'uh', 'uhh', 'uhhh', 'uhm', 'uhmm', 'er', 'err', 'erm', 'ah', 'ahh', 'hmm', 'hmmm', 'hm', 'mm', 'mmm']);

/** A token split into what surrounds the word and the word itself: `"Um,` → `"`, `Um`, `,`. */
type Token = { lead: string; core: string; trail: string };

function splitToken(raw: string): Token {
  const match = /^([^\p{L}\p{N}]*)(.*?)([^\p{L}\p{N}]*)$/u.exec(raw);
  return { lead: match?.[1] ?? '', core: match?.[2] ?? raw, trail: match?.[3] ?? '' };
}

const joinToken = (token: Token): string => token.lead + token.core + token.trail;

/** True for a hesitation; a hyphen or apostrophe inside ("uh-huh", "er's") makes it a real word. */
export const isFillerWord = (word: string): boolean => FILLERS.has(splitToken(word).core.toLowerCase());

const SENTENCE_END = /[.!?…]$/;
const HAS_PUNCTUATION = /[.,!?;:…]/;
const HAS_WORD = /[\p{L}\p{N}]/u;

/** Drops hesitation tokens from punctuated or bare text, keeping the punctuation that belongs to the sentence. */
export function removeFillers(text: string): string {
  const tokens = text.split(/\s+/).filter(Boolean).map(splitToken);
  const isCased = /\p{Lu}/u.test(text);
  const kept: Token[] = [];
  let capitalizeNext = false;
  for (const token of tokens) {
    if (!FILLERS.has(token.core.toLowerCase())) {
      if (capitalizeNext) token.core = upperFirst(token.core);
      capitalizeNext = false;
      kept.push(token);
      continue;
    }
    const startsSentence = kept.length === 0 || SENTENCE_END.test(kept.at(-1)!.trail);
    // "Um, so we…" → "So we…": the word after a dropped sentence opener takes its capital.
    if (startsSentence && isCased && /^\p{Lu}/u.test(token.core)) capitalizeNext = true;
    // "…we are ready, um." → "…we are ready.": an end mark on the filler ends the sentence before it.
    const end = /[.!?…]+/.exec(token.trail)?.[0];
    const previous = kept.at(-1);
    if (end && previous) previous.trail = previous.trail.replace(/[,;:]+$/, '') + (SENTENCE_END.test(previous.trail) ? '' : end);
    // "we were, uh, ready" → "we were ready": the commas around a hesitation mark the pause, not the sentence.
    else if (previous && token.trail.startsWith(',') && previous.trail.endsWith(',')) previous.trail = previous.trail.slice(0, -1);
  }
  // "…we were ready, um" → "…we were ready": no dangling comma where the hesitation trailed off.
  const last = kept.at(-1);
  if (last && tokens.length > 0 && FILLERS.has(tokens.at(-1)!.core.toLowerCase())) last.trail = last.trail.replace(/[,;:]+$/, '');
  return kept.map(joinToken).join(' ');
}

const QUESTION_WORDS = new Set(['who', 'whom', 'whose', 'what', 'when', 'where', 'why', 'how', 'which']);
const AUXILIARIES = new Set([
  'is',
  'are',
  'was',
  'were',
  'am',
  'do',
  'does',
  'did',
  'can',
  'could',
  'would',
  'will',
  'should',
  'shall',
  'have',
  'has',
  'may',
  'might',
]);
const SUBJECTS = new Set(['i', 'you', 'we', 'they', 'he', 'she', 'it', 'there', 'this', 'that', 'these', 'those', 'anyone', 'everyone', 'someone']);
/** After a question word, these make "how many people came" a question and "when we met" not one. */
const QUESTION_FOLLOWERS = new Set([...AUXILIARIES, 'many', 'much', 'long', 'often', 'about', 'else', "what's", "where's", "who's"]);

/** A bare utterance reads as a question when it opens like one: "what is…", "how many…", "can we…", "is it…". */
function opensQuestion(words: string[]): boolean {
  const [first = '', second = ''] = words;
  if (/^(what|who|where|when|why|how)'s$/.test(first)) return true;
  if (QUESTION_WORDS.has(first)) return QUESTION_FOLLOWERS.has(second);
  return AUXILIARIES.has(first) && SUBJECTS.has(second);
}

const upperFirst = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

/** Sentence case, "I", and a full stop (or a question mark) for text with no punctuation at all. */
export function punctuate(text: string): string {
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length === 0 || HAS_PUNCTUATION.test(text)) return text;
  const fixed = words.map((word) => (/^i('(m|ll|d|ve|s))?$/i.test(word) ? `I${word.slice(1).toLowerCase()}` : word));
  fixed[0] = upperFirst(fixed[0]!);
  return fixed.join(' ') + (opensQuestion(words.map((w) => w.toLowerCase())) ? '?' : '.');
}

/**
 * Applies the person's Recording settings to a meeting's attributed segments. Fillers come out of
 * both the text and the timed words; a segment left with nothing said is dropped, and one that
 * lost its first or last word is narrowed to the words that remain, so clicking it seeks to speech.
 */
export function postProcessSegments(segments: AttributedSegment[], options: PostProcessOptions): AttributedSegment[] {
  const result: AttributedSegment[] = [];
  for (const segment of segments) {
    let { text, words, startMs, endMs, confidence } = segment;
    if (options.fillerWordRemoval) {
      const remaining = words.filter((word) => !isFillerWord(word.text));
      if (remaining.length !== words.length) {
        words = remaining;
        if (words.length > 0) ({ startMs, endMs, confidence } = spanOf(words));
      }
      text = removeFillers(text);
      if (!HAS_WORD.test(text)) continue;
    }
    text = text.replace(/\s+/g, ' ').trim();
    if (text === '') continue;
    if (options.punctuation) text = punctuate(text);
    result.push({ ...segment, text, words, startMs, endMs, confidence });
  }
  return result;
}

function spanOf(words: RecognizedWord[]): { startMs: number; endMs: number; confidence: number } {
  return { startMs: words[0]!.startMs, endMs: words.at(-1)!.endMs, confidence: meanConfidence(words) };
}
