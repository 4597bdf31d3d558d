import { checkCitations } from '../../citations.ts';
import type { NotesEngine, NotesResult, NotesTranscript } from '../../notes-types.ts';
import type { FinalNotes } from './answer-schemas.ts';
import { createChatClient, type RetryPolicy } from './chat-client.ts';
import { chunkTranscript } from './chunking.ts';
import { coverChunk, type Covered } from './cover-chunk.ts';
import { LlmCallError } from './llm-errors.ts';
import { toDraft } from './part-notes.ts';
import { PART_SHAPE, partPrompt, systemPrompt } from './prompts.ts';
import { reduceParts } from './reduce-parts.ts';
import type { RunContext } from './run-context.ts';
import { createStructuredOutput } from './structured-output.ts';
import { estimateTokens } from './token-estimate.ts';
import { referenceTranscript } from './transcript-lines.ts';

export type LlmNotesEngineOptions = {
  /** Base URL of an OpenAI-compatible server ("http://localhost:11434" or ".../v1"). */
  url: string;
  apiKey?: string | undefined;
  model: string;
  /** The model's context window in tokens, as served (Ollama's num_ctx, llama.cpp's --ctx-size). */
  contextTokens: number;
  /** How long one request may take. */
  timeoutMs: number;
  /** Covers the parts of a meeting the LLM cannot do. */
  local: NotesEngine;
  fetch?: typeof fetch | undefined;
  retry?: Partial<RetryPolicy> | undefined;
};

export type EngineAvailability = { available: true } | { available: false; reason: string };

export type LlmNotesEngine = NotesEngine & { checkAvailability: () => Promise<EngineAvailability> };

/** The answer's share of the context: notes on a part run to a few hundred tokens, a long meeting's merge to a few thousand. */
const answerTokensFor = (contextTokens: number) => Math.min(4096, Math.max(512, Math.round(contextTokens / 4)));

/** Tokens chat templates add around the messages (role markers, BOS): a generous allowance. */
const TEMPLATE_TOKENS = 64;

const emptyResult = (): NotesResult => ({
  summary: '',
  summarySentences: [],
  keyPoints: [],
  topics: [],
  actionItems: [],
  decisions: [],
  engine: 'llm',
  droppedUncited: 0,
  localFallbackParts: 0,
});

/** Served ids may carry a tag or an organisation ("llama3.2:latest", "meta-llama/Llama-3.1-8B"). */
const sameModel = (served: string, wanted: string) => served === wanted || served === `${wanted}:latest` || served.split('/').at(-1) === wanted;

/**
 * Meeting notes from any OpenAI-compatible chat-completions endpoint (Ollama, llama.cpp, vLLM,
 * LM Studio, OpenAI, Groq). A meeting too long for the model's context is read in chunks of whole
 * speaker turns (map) whose notes are then merged (reduce); every item and every sentence of the
 * summary cites its segments and the citations are checked before anything is returned.
 */
export function createLlmNotesEngine(options: LlmNotesEngineOptions): LlmNotesEngine {
  const client = createChatClient(options);
  const probe = createChatClient({ ...options, timeoutMs: Math.min(options.timeoutMs, 10_000), retry: { maxRetries: 0 } });
  const output = createStructuredOutput(client); // one per engine: what the server supports is learnt once
  const answerTokens = answerTokensFor(options.contextTokens);

  /** Transcript tokens one map request can hold. */
  function chunkBudget(transcript: NotesTranscript, parts: number): number {
    const overhead = estimateTokens(systemPrompt(PART_SHAPE) + partPrompt(transcript, [], parts, parts)) + TEMPLATE_TOKENS;
    const budget = options.contextTokens - answerTokens - overhead;
    if (budget < 200) throw new Error(`NOTES_LLM_CONTEXT_TOKENS=${options.contextTokens} leaves no room for a transcript; use at least 4096.`);
    return budget;
  }

  return {
    name: 'llm',

    async checkAvailability() {
      try {
        const models = await probe.listModels(AbortSignal.timeout(Math.min(options.timeoutMs, 10_000)));
        if (models && models.length > 0 && !models.some((id) => sameModel(id, options.model))) {
          return { available: false, reason: `The notes LLM has no model "${options.model}" (it serves ${models.slice(0, 5).join(', ')}).` };
        }
        return { available: true };
      } catch (error) {
        if (error instanceof LlmCallError) return { available: false, reason: error.message };
        if (error instanceof DOMException && error.name === 'TimeoutError') return { available: false, reason: 'The notes LLM did not answer in time.' };
        throw error;
      }
    },

    async generate(transcript, { signal, onProgress }) {
      signal.throwIfAborted();
      if (transcript.segments.every((s) => s.text.trim() === '')) return emptyResult();
      const referenced = referenceTranscript(transcript);
      // Sized for a part label of the largest plausible count; the header barely changes with it.
      const chunks = chunkTranscript(referenced.lines, chunkBudget(transcript, 999));
      const ctx: RunContext = {
        transcript,
        referenced,
        output,
        local: options.local,
        contextTokens: options.contextTokens - TEMPLATE_TOKENS,
        answerTokens,
        signal,
        stats: { localFallbackParts: 0, droppedByLocal: 0, timeoutsInARow: 0 },
      };
      const parts = chunks.length > 1 ? chunks.length + 1 : 1; // the reduce is a part of its own
      const covered: Covered[] = [];
      for (const [i, chunk] of chunks.entries()) {
        onProgress?.(i + 1, parts);
        covered.push(...(await coverChunk(chunk, { part: i + 1, parts: chunks.length }, ctx, { whole: chunks.length === 1 })));
      }
      const only = covered.length === 1 ? covered[0] : undefined;
      let final: FinalNotes;
      if (only?.summary !== undefined) {
        const { summaryPoints: _points, ...items } = only.notes;
        final = { summary: only.summary, ...items };
      } else {
        onProgress?.(parts, parts);
        final = await reduceParts(
          covered.map((c) => c.notes),
          ctx,
        );
      }
      const { draft, unknownRefs } = toDraft(final, referenced, transcript);
      const checked = checkCitations(draft, transcript);
      return {
        ...checked.draft,
        engine: 'llm',
        droppedUncited: checked.droppedUncited + unknownRefs + ctx.stats.droppedByLocal,
        localFallbackParts: ctx.stats.localFallbackParts,
      };
    },
  };
}
