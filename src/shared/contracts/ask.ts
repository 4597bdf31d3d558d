import { z } from 'zod/mini';
import { defineEndpoint } from './endpoint.ts';

/**
 * Ask (issue 14): a question in plain words over the caller's meetings (their own and those shared
 * with their teams) or one of them, answered with citations — meeting, speaker, time — each a link
 * to the moment. With the notes' LLM: a short answer whose every sentence cites segments, checked
 * like the notes' citations; without one: the most relevant moments themselves, grouped by meeting.
 */
export const MAX_QUESTION_LENGTH = 500;

export const AskBodySchema = z.object({
  question: z.string().check(
    z.trim(),
    z.minLength(1, 'Type a question.'),
    z.maxLength(MAX_QUESTION_LENGTH, `A question can be at most ${MAX_QUESTION_LENGTH} characters.`),
    z.refine((q) => /[\p{L}\p{N}]/u.test(q), 'Type a question with words in it.'),
  ),
  /** Ask about this meeting only (404 unless the caller may read it). */
  meetingId: z.optional(z.uuid()),
});
export type AskBody = z.infer<typeof AskBodySchema>;

export const AskCitationSchema = z.object({
  meetingId: z.uuid(),
  segmentId: z.string(),
  startMs: z.number().check(z.int(), z.nonnegative()),
  meetingTitle: z.string(),
  /** Who said it: the speaker's name, or their label ("Speaker 2"); null when the transcript has no speakers. */
  speaker: z.nullable(z.string()),
  /** The segment's words, as the transcript has them. */
  text: z.string(),
});
export type AskCitation = z.infer<typeof AskCitationSchema>;

/** One sentence of a model's answer and the citations (indexes into `citations`) that hold it. */
export const AskSentenceSchema = z.object({ text: z.string(), citations: z.array(z.number().check(z.int(), z.nonnegative())) });
export type AskSentence = z.infer<typeof AskSentenceSchema>;

export const AskModeSchema = z.enum(['llm', 'passages']);
export type AskMode = z.infer<typeof AskModeSchema>;

export const AskResponseSchema = z.object({
  /** `llm`: a model's answer, sentence by sentence; `passages`: the most relevant moments, no model involved. */
  mode: AskModeSchema,
  /**
   * The answer as plain text: the model's checked sentences; in `passages` mode the action items and
   * decisions that answer the question, else the notice that says what the passages are.
   */
  answer: z.string(),
  /** The model's sentences; in `passages` mode the matching action items and decisions (who, what, by when), each citing its moment. */
  sentences: z.array(AskSentenceSchema),
  /** In `passages` mode grouped by meeting (the meetings in order of their best moment), best first inside each. */
  citations: z.array(AskCitationSchema),
  /** Why the answer is what it is, when a person should know (no model configured, the model failed, nothing found). */
  notice: z.nullable(z.string()),
});
export type AskResponse = z.infer<typeof AskResponseSchema>;

export const NO_MODEL_NOTICE = 'No AI model is configured; here are the most relevant moments.';
export const MODEL_FAILED_NOTICE = 'The AI model could not answer just now; here are the most relevant moments.';
export const MODEL_UNSUPPORTED_NOTICE = 'The AI model gave no answer these meetings support; here are the most relevant moments.';
export const NOTHING_FOUND_NOTICE = 'Nothing in these meetings matches the question.';

/**
 * The streamed variant's Server-Sent Events, in order: `token` events carry the answer's text as it
 * is ready ({ text }), then one `done` event carries the whole AskResponse (citations included); an
 * `error` event ({ code, message }) ends a stream that failed after it began.
 */
export const AskTokenEventSchema = z.object({ text: z.string() });
export const AskStreamErrorSchema = z.object({ code: z.string(), message: z.string() });

const tag = 'ask';

export const askEndpoints = {
  ask: defineEndpoint({
    method: 'POST',
    path: '/api/v1/ask',
    body: AskBodySchema,
    response: AskResponseSchema,
    tag,
    summary: 'Ask a question over the meetings the caller may read (or one of them); answered with citations',
  }),
  stream: defineEndpoint({
    method: 'POST',
    path: '/api/v1/ask/stream',
    body: AskBodySchema,
    response: 'file',
    tag,
    summary: 'Ask, streamed as Server-Sent Events: `token` events ({ text }), then `done` (the AskResponse)',
  }),
};
