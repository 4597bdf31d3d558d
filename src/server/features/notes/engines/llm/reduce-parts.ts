import type { z } from 'zod';
import { FinalNotesSchema, PartNotesSchema, type FinalNotes, type PartNotes } from './answer-schemas.ts';
import { LlmCallError } from './llm-errors.ts';
import { concatParts, dedupeNotes, finalFromPart } from './merge-items.ts';
import { FINAL_SHAPE, mergePrompt, PART_SHAPE, systemPrompt } from './prompts.ts';
import { callModel, type RunContext } from './run-context.ts';
import { estimateTokens } from './token-estimate.ts';

/** Room for the parts in one merge request: the context less the answer and the instructions. */
function mergeBudget(ctx: RunContext, final: boolean): number {
  const overhead = estimateTokens(systemPrompt(final ? FINAL_SHAPE : PART_SHAPE) + mergePrompt(ctx.transcript, [], final));
  return ctx.contextTokens - ctx.answerTokens - overhead;
}

const partTokens = (part: PartNotes) => estimateTokens(JSON.stringify(part));

/** Consecutive parts grouped so that each group fits one merge request. */
function batches(parts: PartNotes[], budget: number): PartNotes[][] {
  const groups: PartNotes[][] = [];
  let size = 0;
  for (const part of parts) {
    const tokens = partTokens(part);
    const last = groups.at(-1);
    if (last && size + tokens <= budget) {
      last.push(part);
      size += tokens;
    } else {
      groups.push([part]);
      size = tokens;
    }
  }
  return groups;
}

/** One merge by the model, tried twice; undefined when it failed, for the caller to join the parts itself. */
async function askMerge<T>(parts: PartNotes[], schema: z.ZodType<T>, final: boolean, ctx: RunContext): Promise<T | undefined> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      return await callModel(ctx, {
        system: systemPrompt(final ? FINAL_SHAPE : PART_SHAPE),
        user: mergePrompt(ctx.transcript, parts, final),
        schema,
        name: final ? 'meeting_notes' : 'meeting_part_notes',
      });
    } catch (error) {
      if (!(error instanceof LlmCallError)) throw error; // aborted, or the run is over
      if (error.kind === 'context-length' || error.kind === 'truncated') break;
    }
  }
  return undefined;
}

/**
 * The reduce step: the parts' notes merged and de-duplicated into the meeting's notes with a
 * summary. Parts too many for one request are merged in consecutive groups first, level by level
 * (hierarchical reduce). A merge the model cannot do joins the parts without it, so the
 * items are all still there and the summary is made of the parts' own sentences.
 */
export async function reduceParts(parts: PartNotes[], ctx: RunContext): Promise<FinalNotes> {
  let level = parts;
  for (;;) {
    const total = level.reduce((sum, part) => sum + partTokens(part), 0);
    if (total <= mergeBudget(ctx, true)) {
      const merged = await askMerge(level, FinalNotesSchema, true, ctx);
      return dedupeNotes(merged ?? finalFromPart(concatParts(level)));
    }
    const groups = batches(level, mergeBudget(ctx, false));
    if (groups.length === level.length) return dedupeNotes(finalFromPart(concatParts(level))); // no two parts fit together
    const next: PartNotes[] = [];
    for (const group of groups) next.push(group.length === 1 ? group[0]! : ((await askMerge(group, PartNotesSchema, false, ctx)) ?? concatParts(group)));
    level = next;
  }
}
