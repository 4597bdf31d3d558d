import winkNLP, { type ItemSentence, type PartOfSpeech } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

/**
 * The one place that talks to wink-nlp: text in, plain tokens and sentence spans out, so the rest of
 * the engine works on arrays and never on wink's item objects. Only sentence boundaries and parts of
 * speech are in the pipe: the notes use neither entities, negation nor sentiment, and wink reads a
 * one-hour meeting in well under 100 ms this way.
 */
const nlp = winkNLP(model, ['sbd', 'pos']);
const its = nlp.its;

export type Token = {
  /** As written: "I", "'ll", "Send". */
  text: string;
  /** As written, in lower case. */
  lower: string;
  lemma: string;
  pos: PartOfSpeech;
  /** The spaces written before the token, so cleaned text keeps "I'll" together. */
  space: string;
  isStop: boolean;
};

/** A read text: its tokens and each sentence as a [first, last] token range (inclusive). */
export type ReadText = { tokens: Token[]; sentences: Array<[first: number, last: number]> };

const POS_TAGS: ReadonlySet<string> = new Set([
  'ADJ',
  'ADP',
  'ADV',
  'AUX',
  'CCONJ',
  'DET',
  'INTJ',
  'NOUN',
  'NUM',
  'PART',
  'PRON',
  'PROPN',
  'PUNCT',
  'SCONJ',
  'SYM',
  'VERB',
  'X',
  'SPACE',
]);
const isPartOfSpeech = (tag: string): tag is PartOfSpeech => POS_TAGS.has(tag);

// wink's `out` is typed as "the value or a string"; these narrow its answers without casts.
const asStrings = (values: unknown[]): string[] => values.map((v) => (typeof v === 'string' ? v : ''));
const asFlags = (values: unknown[]): boolean[] => values.map((v) => v === true);

export function readText(text: string): ReadText {
  const doc = nlp.readDoc(text);
  const all = doc.tokens();
  const texts = all.out();
  // @ts-expect-error wink-nlp's types give its.lemma the signature of a span helper; `out` accepts it (its4tokens).
  const lemmas = asStrings(all.out(its.lemma));
  const tags = asStrings(all.out(its.pos));
  const spaces = asStrings(all.out(its.precedingSpaces));
  const stops = asFlags(all.out(its.stopWordFlag));
  const tokens = texts.map((t, i): Token => {
    const tag = tags[i] ?? '';
    return {
      text: t,
      lower: t.toLowerCase(),
      lemma: lemmas[i] || t.toLowerCase(),
      pos: isPartOfSpeech(tag) ? tag : 'X',
      space: spaces[i] ?? ' ',
      isStop: stops[i] ?? false,
    };
  });
  const sentences: ReadText['sentences'] = [];
  doc.sentences().each((sentence: ItemSentence) => {
    const span = sentence.out(its.span);
    if (Array.isArray(span) && typeof span[0] === 'number' && typeof span[1] === 'number') sentences.push([span[0], span[1]]);
  });
  return { tokens, sentences };
}
