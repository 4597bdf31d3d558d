/** One occurrence of the searched words in a transcript line: where it starts and ends in the line's text. */
export type TranscriptMatch = { segmentId: string; start: number; end: number };

// The searched text is matched as it is written, never as a pattern.
const escapePattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Every occurrence of `query` in the lines, in transcript order, ignoring case (Unicode letters
 * too: "ÉTÉ" finds "été"). Runs of spaces in the query match any run of white space in a line.
 */
export function findTranscriptMatches(segments: readonly { id: string; text: string }[], query: string): TranscriptMatch[] {
  const words = query.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  const pattern = new RegExp(words.map(escapePattern).join('\\s+'), 'giu');
  const matches: TranscriptMatch[] = [];
  for (const segment of segments) {
    for (const found of segment.text.matchAll(pattern)) {
      matches.push({ segmentId: segment.id, start: found.index, end: found.index + found[0].length });
    }
  }
  return matches;
}
