import type { NotesSegment } from './notes-types.ts';

/**
 * The most words of a transcript the notes read: about 11 hours of talk at 150 words a minute,
 * past the longest recording by default (8 hours). Imports may hold five megabytes of text (some
 * 900,000 words), which kept the one notes lane busy for minutes; the engines' work grows with the
 * words, so this bounds the time any one meeting's notes take.
 */
export const MAX_NOTES_WORDS = 100_000;

/** The most words of one line the notes read: a five-minute monologue is about 750. */
export const MAX_NOTES_LINE_WORDS = 1_000;

const wordsOf = (text: string): string[] => text.split(/\s+/).filter(Boolean);

/**
 * A transcript as the notes read it, within MAX_NOTES_WORDS: a line longer than
 * MAX_NOTES_LINE_WORDS is cut there, and a transcript still over the budget keeps lines spread
 * evenly over the whole meeting (a line is kept while the words kept stay within the budget's share
 * of the words seen so far), so its notes still cover its beginning, middle and end. A transcript
 * within the budget is read whole, as before.
 */
export function withinNotesBudget(segments: NotesSegment[]): NotesSegment[] {
  const lines = segments.map((segment) => {
    const words = wordsOf(segment.text);
    return words.length > MAX_NOTES_LINE_WORDS
      ? { segment: { ...segment, text: words.slice(0, MAX_NOTES_LINE_WORDS).join(' ') }, words: MAX_NOTES_LINE_WORDS }
      : { segment, words: words.length };
  });
  const total = lines.reduce((sum, line) => sum + line.words, 0);
  if (total <= MAX_NOTES_WORDS) return lines.map((line) => line.segment);
  const share = MAX_NOTES_WORDS / total;
  let seen = 0;
  let kept = 0;
  return lines.flatMap((line) => {
    seen += line.words;
    if (kept + line.words > seen * share) return [];
    kept += line.words;
    return [line.segment];
  });
}
