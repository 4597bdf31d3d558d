import type { NotesSegment } from '../../notes-types.ts';
import { cleanSpeech, renderSentence } from './clean-speech.ts';
import { readText, type Token } from './speech-nlp.ts';

/** One spoken sentence of the meeting, as said and as a note would write it. */
export type Sentence = {
  /** Position among all sentences of the meeting. */
  index: number;
  /** Position of its segment in the transcript. */
  segmentIndex: number;
  segmentId: string;
  speakerId: string | null;
  /** The words as said (one sentence of the segment). */
  said: string;
  /** The cleaned tokens; empty when the sentence was only hesitation or back-channel. */
  tokens: Token[];
  /** The cleaned sentence, capitalised and punctuated; '' when `tokens` is empty. */
  text: string;
  /** Content words (lemmas of non-stop words) that say what the sentence is about. */
  terms: string[];
  wordCount: number;
  isQuestion: boolean;
};

/**
 * Recognisers without punctuation hand over whole turns as one "sentence"; past this many tokens a
 * sentence is cut at its commas, then into pieces of this size, so no statement runs on for a page.
 */
const MAX_SENTENCE_TOKENS = 60;

/** Tokens that are words about something: not stop words, fillers, numbers alone or punctuation. */
export function contentTerms(tokens: Token[]): string[] {
  return tokens.filter((t) => !t.isStop && /^\p{L}[\p{L}-]+$/u.test(t.text) && t.pos !== 'INTJ' && t.pos !== 'AUX').map((t) => t.lemma);
}

function cutLongSentence(tokens: Token[]): Token[][] {
  if (tokens.length <= MAX_SENTENCE_TOKENS) return [tokens];
  const pieces: Token[][] = [[]];
  for (const token of tokens) {
    const piece = pieces.at(-1)!;
    piece.push(token);
    const atComma = token.text === ',' && piece.length >= MAX_SENTENCE_TOKENS / 3;
    if (atComma || piece.length >= MAX_SENTENCE_TOKENS) pieces.push([]);
  }
  return pieces.filter((p) => p.length > 0);
}

function sentencesOfSegment(segment: NotesSegment, segmentIndex: number): Array<Omit<Sentence, 'index'>> {
  const { tokens, sentences } = readText(segment.text);
  return sentences.flatMap(([first, last]) =>
    cutLongSentence(tokens.slice(first, last + 1)).map((said) => {
      const cleaned = cleanSpeech(said);
      const text = renderSentence(cleaned);
      return {
        segmentIndex,
        segmentId: segment.id,
        speakerId: segment.speakerId,
        said: said.map((t, i) => `${i === 0 ? '' : t.space === '' ? '' : ' '}${t.text}`).join(''),
        tokens: cleaned,
        text,
        terms: contentTerms(cleaned),
        wordCount: cleaned.filter((t) => t.pos !== 'PUNCT').length,
        isQuestion: said.some((t) => t.text === '?'),
      };
    }),
  );
}

/** Every sentence of the transcript in order; a segment with no text gives none. */
export function splitSentences(segments: NotesSegment[]): Sentence[] {
  return segments.flatMap((segment, segmentIndex) => sentencesOfSegment(segment, segmentIndex)).map((s, index) => ({ ...s, index }));
}
