import { l as rougeL, n as rougeN } from 'js-rouge';
import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

/**
 * ROUGE F1 (Lin, 2004) of a summary against a reference, by js-rouge: ROUGE-1 and -2 over clipped
 * n-gram counts, ROUGE-L as the summary-level union LCS over sentences. Text is read by wink-nlp,
 * the tokenizer the local notes engine uses: words and numbers, lower case, punctuation left out.
 */
const nlp = winkNLP(model, ['sbd']);
const its = nlp.its;

const WORD_TYPES: ReadonlySet<string> = new Set(['word', 'number', 'ordinal', 'hashtag', 'mention', 'emoji']);

function tokenize(text: string): string[] {
  const tokens = nlp.readDoc(text).tokens();
  const types = tokens.out(its.type);
  return tokens
    .out()
    .filter((_, i) => WORD_TYPES.has(String(types[i])))
    .map((t) => t.toLowerCase());
}

const segment = (text: string): string[] => nlp.readDoc(text).sentences().out();

export type RougeScores = { rouge1: number; rouge2: number; rougeL: number };

export function rougeScores(candidate: string, reference: string): RougeScores {
  // js-rouge refuses an empty text; an empty summary shares nothing with the reference.
  if (tokenize(candidate).length === 0 || tokenize(reference).length === 0) return { rouge1: 0, rouge2: 0, rougeL: 0 };
  return {
    rouge1: rougeN(candidate, reference, { n: 1, tokenizer: tokenize }),
    rouge2: rougeN(candidate, reference, { n: 2, tokenizer: tokenize }),
    rougeL: rougeL(candidate, reference, { tokenizer: tokenize, segmenter: segment }),
  };
}

/** Words as a reader counts them: runs of characters between spaces. */
export const countWords = (text: string): number => text.split(/\s+/).filter(Boolean).length;

/** The Lead baseline: the transcript's first words, as many as the summary has. */
export const leadSummary = (transcriptText: string, words: number): string => transcriptText.split(/\s+/).filter(Boolean).slice(0, words).join(' ');
