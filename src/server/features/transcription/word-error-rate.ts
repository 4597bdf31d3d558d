/** Spellings that differ only in form, as common WER normalisers treat them ("mr" is "mister"). */
const EQUIVALENTS: Record<string, string> = {
  mr: 'mister',
  mrs: 'missus',
  dr: 'doctor',
  st: 'saint',
  ok: 'okay',
  "we're": 'we are',
  "you're": 'you are',
  "they're": 'they are',
  "i'm": 'i am',
  "it's": 'it is',
  "that's": 'that is',
  "there's": 'there is',
  "don't": 'do not',
  "can't": 'can not',
  cannot: 'can not',
  "won't": 'will not',
  "isn't": 'is not',
  "i've": 'i have',
  "we've": 'we have',
  "i'll": 'i will',
  "we'll": 'we will',
};

/** Lower-case words without punctuation, so "Mister, Quilter." and "mr quilter" compare equal. */
export function normalizeWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[^\p{L}\p{N}'\s]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((word) => (EQUIVALENTS[word] ?? word).split(' '));
}

/**
 * Word error rate: (substitutions + deletions + insertions) / reference words, by Levenshtein
 * distance over words. 0 is perfect; it can exceed 1 when the hypothesis adds many words.
 */
export function wordErrorRate(reference: string, hypothesis: string): number {
  const ref = normalizeWords(reference);
  const hyp = normalizeWords(hypothesis);
  if (ref.length === 0) return hyp.length === 0 ? 0 : 1;
  let previous = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const current = [i];
    for (let j = 1; j <= hyp.length; j++) {
      const cost = ref[i - 1] === hyp[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[hyp.length]! / ref.length;
}
