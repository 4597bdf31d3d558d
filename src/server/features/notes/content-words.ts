import { eng as englishStopWords } from 'stopword';
import { stemmer } from 'stemmer';

/**
 * Words that carry meaning, reduced to their Porter stems, so "Sam is sending the reports" and
 * "I'll send the report" share `send` and `report`. Tokens come from the platform's Unicode word
 * segmenter (ICU), stop words from stopword's English list plus the few function words of
 * spoken meetings that list lacks (fillers and modal "will").
 */
const SPOKEN_FUNCTION_WORDS = ['will', 'shall', 'going', 'gonna', 'just', 'okay', 'ok', 'yeah', 'yes', 'um', 'uh', 'so', 'let', 'us', 'not', 'no'];
const STOP_WORDS = new Set([...englishStopWords, ...SPOKEN_FUNCTION_WORDS]);
const segmenter = new Intl.Segmenter('en', { granularity: 'word' });
// "I'll", "Sam's", "don't": the clitic is grammar, the head word is the content.
const CLITIC = /['’](s|ll|re|ve|d|m|t)$|n['’]t$/;

export function contentStems(text: string): Set<string> {
  const stems = new Set<string>();
  for (const { segment, isWordLike } of segmenter.segment(text.normalize('NFKC').toLowerCase())) {
    if (!isWordLike) continue;
    const word = segment.replace(CLITIC, '');
    if (word === '' || STOP_WORDS.has(word)) continue;
    stems.add(stemmer(word));
  }
  return stems;
}

/** Share of `claim`'s content stems that occur in `source` (0 when the claim has none). */
export function shareFound(claim: Set<string>, source: Set<string>): number {
  if (claim.size === 0) return 0;
  let found = 0;
  for (const stem of claim) if (source.has(stem)) found++;
  return found / claim.size;
}
