import type { TranscriptLine } from './transcript-lines.ts';

/** A run of whole speaker turns (or, for one over-long turn, whole segments) sent in one request. */
export type Chunk = { lines: TranscriptLine[]; tokens: number };

const tokensOf = (lines: TranscriptLine[]) => lines.reduce((sum, line) => sum + line.tokens, 0);

/** Consecutive lines of one speaker. */
function turnsOf(lines: TranscriptLine[]): TranscriptLine[][] {
  const turns: TranscriptLine[][] = [];
  for (const line of lines) {
    const last = turns.at(-1);
    if (last && last[0]!.segment.speakerId === line.segment.speakerId) last.push(line);
    else turns.push([line]);
  }
  return turns;
}

/** Packs lines into as few pieces under `budget` tokens as fill order allows, never breaking a line. */
function packLines(lines: TranscriptLine[], budget: number): TranscriptLine[][] {
  const pieces: TranscriptLine[][] = [];
  let current: TranscriptLine[] = [];
  let size = 0;
  for (const line of lines) {
    if (current.length > 0 && size + line.tokens > budget) {
      pieces.push(current);
      current = [];
      size = 0;
    }
    current.push(line);
    size += line.tokens;
  }
  if (current.length > 0) pieces.push(current);
  return pieces;
}

/**
 * Chunks of whole speaker turns, each at most `budget` tokens, so no one's point is cut in two; a
 * single turn longer than the budget is cut between its segments. Greedy packing keeps the
 * number of requests low; a lone segment over the budget still makes a chunk of its own.
 */
export function chunkTranscript(lines: TranscriptLine[], budget: number): Chunk[] {
  const chunks: Chunk[] = [];
  let current: TranscriptLine[] = [];
  const flush = () => {
    if (current.length > 0) chunks.push({ lines: current, tokens: tokensOf(current) });
    current = [];
  };
  for (const turn of turnsOf(lines)) {
    const turnTokens = tokensOf(turn);
    if (turnTokens > budget) {
      flush();
      for (const piece of packLines(turn, budget)) chunks.push({ lines: piece, tokens: tokensOf(piece) });
    } else {
      if (tokensOf(current) + turnTokens > budget) flush();
      current.push(...turn);
    }
  }
  flush();
  return chunks;
}

/**
 * Two halves of a chunk a model could not handle, cut at the turn boundary nearest its middle
 * (between segments when it is one turn); undefined for a single segment, which cannot be cut.
 */
export function splitChunk(chunk: Chunk): [Chunk, Chunk] | undefined {
  if (chunk.lines.length < 2) return undefined;
  const turnStarts = chunk.lines.flatMap((line, i) => (i > 0 && line.segment.speakerId !== chunk.lines[i - 1]!.segment.speakerId ? [i] : []));
  const candidates = turnStarts.length > 0 ? turnStarts : chunk.lines.map((_, i) => i).slice(1);
  const half = chunk.tokens / 2;
  let best = candidates[0]!;
  for (const at of candidates) if (Math.abs(tokensOf(chunk.lines.slice(0, at)) - half) < Math.abs(tokensOf(chunk.lines.slice(0, best)) - half)) best = at;
  const first = chunk.lines.slice(0, best);
  const second = chunk.lines.slice(best);
  return [
    { lines: first, tokens: tokensOf(first) },
    { lines: second, tokens: tokensOf(second) },
  ];
}
