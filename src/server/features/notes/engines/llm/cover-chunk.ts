import { countItems, FinalNotesSchema, PartNotesSchema, type CitedSentence, type PartNotes } from './answer-schemas.ts';
import { splitChunk, type Chunk } from './chunking.ts';
import { LlmCallError } from './llm-errors.ts';
import { nameSelfOwners, partFromLocal } from './part-notes.ts';
import { FINAL_SHAPE, PART_SHAPE, partPrompt, systemPrompt, wholePrompt } from './prompts.ts';
import { callModel, type RunContext } from './run-context.ts';

/** A part's notes, and the meeting's summary (its cited sentences) when the part was the whole meeting. */
export type Covered = { notes: PartNotes; summary?: CitedSentence[] };

export type PartLabel = { part: number; parts: number };

/** Halvings before a chunk the model keeps failing on goes to the local engine. */
const MAX_SPLIT_DEPTH = 5;

const tooBig = (error: LlmCallError) => error.kind === 'context-length' || error.kind === 'truncated';

async function askModel(chunk: Chunk, label: PartLabel, whole: boolean, ctx: RunContext): Promise<Covered> {
  const lines = chunk.lines.map((line) => line.text);
  if (whole) {
    const { summary, ...items } = await callModel(ctx, {
      system: systemPrompt(FINAL_SHAPE),
      user: wholePrompt(ctx.transcript, lines),
      schema: FinalNotesSchema,
      name: 'meeting_notes',
    });
    return { notes: nameSelfOwners({ summaryPoints: summary, ...items }, ctx.referenced, ctx.transcript), summary };
  }
  const notes = await callModel(ctx, {
    system: systemPrompt(PART_SHAPE),
    user: partPrompt(ctx.transcript, lines, label.part, label.parts),
    schema: PartNotesSchema,
    name: 'meeting_part_notes',
  });
  if (notes.summaryPoints.length === 0 && countItems(notes) === 0)
    throw new LlmCallError('malformed', 'The model answered with empty notes for a part with speech.');
  return { notes: nameSelfOwners(notes, ctx.referenced, ctx.transcript) };
}

async function coverLocally(chunk: Chunk, ctx: RunContext): Promise<Covered> {
  const part = { ...ctx.transcript, segments: chunk.lines.map((line) => line.segment) };
  const result = await ctx.local.generate(part, { signal: ctx.signal });
  ctx.stats.localFallbackParts++;
  ctx.stats.droppedByLocal += result.droppedUncited;
  return { notes: partFromLocal(result, ctx.referenced) };
}

/**
 * Notes on one chunk, whatever it takes. A failed chunk is tried once more, then split in half
 * and each half tried once; a half that fails too is covered by the local engine, so no part of
 * the meeting is ever left out. A chunk too big for the model (context-length error, or an answer
 * cut off at the token limit) is split at once, and again while its halves are too big.
 */
export async function coverChunk(chunk: Chunk, label: PartLabel, ctx: RunContext, options: { whole?: boolean; depth?: number } = {}): Promise<Covered[]> {
  const depth = options.depth ?? 0;
  const tries = depth === 0 ? 2 : 1;
  let failure: LlmCallError | undefined;
  for (let attempt = 0; attempt < tries; attempt++) {
    try {
      return [await askModel(chunk, label, options.whole === true && depth === 0, ctx)];
    } catch (error) {
      if (!(error instanceof LlmCallError)) throw error; // aborted, or the run is over
      failure = error;
      if (tooBig(error)) break;
    }
  }
  const maySplit = failure !== undefined && (depth === 0 || tooBig(failure)) && depth < MAX_SPLIT_DEPTH;
  const halves = maySplit ? splitChunk(chunk) : undefined;
  if (!halves) return [await coverLocally(chunk, ctx)];
  const first = await coverChunk(halves[0], label, ctx, { depth: depth + 1 });
  return [...first, ...(await coverChunk(halves[1], label, ctx, { depth: depth + 1 }))];
}
