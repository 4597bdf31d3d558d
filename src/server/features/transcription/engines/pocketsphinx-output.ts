import { meanConfidence, type RecognizedSegment, type RecognizedWord } from './engine.ts';

const WORD_LINE = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)$/;

/** Fillers and markers pocketsphinx emits that are not words anyone said. */
const isMarker = (token: string): boolean => /^<.*>$/.test(token) || /^\[.*\]$/.test(token) || /^\+\+.*\+\+$/.test(token);

/** `and(2)` is the second pronunciation of `and`: the variant number is not part of the word. */
const stripVariant = (token: string): string => token.replace(/\(\d+\)$/, '');

/**
 * Parses `pocketsphinx_continuous -time yes` output: each utterance is a text line followed by one
 * `word start end confidence` line per token (times in seconds from the start of the stream).
 */
export function parsePocketsphinxOutput(output: string): RecognizedSegment[] {
  const segments: RecognizedSegment[] = [];
  let words: RecognizedWord[] = [];
  const flush = (): void => {
    if (words.length === 0) return;
    const first = words[0]!;
    const last = words[words.length - 1]!;
    segments.push({
      startMs: first.startMs,
      endMs: last.endMs,
      text: words.map((w) => w.text).join(' '),
      words,
      confidence: meanConfidence(words),
    });
    words = [];
  };
  for (const raw of output.split('\n')) {
    const line = raw.trim();
    const match = WORD_LINE.exec(line);
    if (!match) {
      // A text line starts a new utterance; its words follow with their timings.
      flush();
      continue;
    }
    const [, token, start, end, confidence] = match;
    if (token === '</s>') {
      flush();
      continue;
    }
    if (isMarker(token!)) continue;
    words.push({
      text: stripVariant(token!),
      startMs: Math.round(Number(start) * 1000),
      endMs: Math.round(Number(end) * 1000),
      confidence: Math.min(1, Math.max(0, Number(confidence))),
    });
  }
  flush();
  return segments;
}
