import type { z } from 'zod';
import type { NotesEngine, NotesTranscript } from '../../notes-types.ts';
import { LlmCallError, NotesLlmError, toNotesLlmError } from './llm-errors.ts';
import type { StructuredOutput, StructuredRequest } from './structured-output.ts';
import type { ReferencedTranscript } from './transcript-lines.ts';

/** Timeouts in a row after which the endpoint counts as not answering at all, for this run. */
const MAX_TIMEOUTS_IN_A_ROW = 3;

/** What one run of the engine carries from chunk to chunk. */
export type RunContext = {
  transcript: NotesTranscript;
  referenced: ReferencedTranscript;
  output: StructuredOutput;
  local: NotesEngine;
  contextTokens: number;
  answerTokens: number;
  signal: AbortSignal;
  stats: { localFallbackParts: number; droppedByLocal: number; timeoutsInARow: number };
};

/**
 * One structured call. A failure about the endpoint rather than this request (unreachable, key
 * refused, no such model, rate limited for long, or timing out again and again) ends the run
 * with a clear error for the job to show and retry, instead of quietly becoming local notes.
 */
export async function callModel<T>(ctx: RunContext, request: Omit<StructuredRequest<T>, 'maxTokens'> & { schema: z.ZodType<T> }): Promise<T> {
  ctx.signal.throwIfAborted();
  try {
    const answer = await ctx.output.ask({ ...request, maxTokens: ctx.answerTokens }, ctx.signal);
    ctx.stats.timeoutsInARow = 0;
    return answer;
  } catch (error) {
    if (!(error instanceof LlmCallError)) throw error;
    if (error.endsRun) throw toNotesLlmError(error);
    ctx.stats.timeoutsInARow = error.kind === 'timeout' ? ctx.stats.timeoutsInARow + 1 : 0;
    if (ctx.stats.timeoutsInARow >= MAX_TIMEOUTS_IN_A_ROW) {
      throw new NotesLlmError(`${error.message} It timed out ${MAX_TIMEOUTS_IN_A_ROW} times in a row; try again later.`, { retryable: true, cause: error });
    }
    throw error;
  }
}
