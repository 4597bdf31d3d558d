import { z } from 'zod';
import type { ChatClient, ResponseFormat } from './chat-client.ts';
import { extractJson } from './extract-json.ts';
import { LlmCallError } from './llm-errors.ts';

/** How the server is asked for JSON, best first. */
export type OutputMode = 'json_schema' | 'json_object' | 'text';

const NEXT_MODE: Record<OutputMode, OutputMode | undefined> = { json_schema: 'json_object', json_object: 'text', text: undefined };

export type StructuredRequest<T> = { system: string; user: string; schema: z.ZodType<T>; name: string; maxTokens: number };

export type StructuredOutput = {
  ask: <T>(request: StructuredRequest<T>, signal: AbortSignal) => Promise<T>;
  mode: () => OutputMode;
};

/**
 * The JSON Schema a server enforces: every field required and no others (what OpenAI's strict
 * mode demands); defaults stay in the zod schema, which fills them in when a model in a looser
 * mode leaves an empty list out.
 */
export function wireSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, {
    io: 'output',
    override: (ctx) => {
      delete ctx.jsonSchema.default;
    },
  });
  const { $schema: _dialect, ...rest } = json;
  return rest;
}

function responseFormat(mode: OutputMode, name: string, schema: z.ZodType): ResponseFormat | undefined {
  if (mode === 'json_schema') return { type: 'json_schema', json_schema: { name, schema: wireSchema(schema), strict: true } };
  if (mode === 'json_object') return { type: 'json_object' };
  return undefined;
}

/**
 * Asks for an answer of a zod schema: json_schema first, then json_object, then plain text with
 * the JSON picked out of it. A server that refuses a response_format (400/422, not a context
 * error) is asked again at once one step down, and this instance remembers the step for every
 * later call. Whatever the mode, the answer is parsed and validated here.
 */
export function createStructuredOutput(client: ChatClient): StructuredOutput {
  let mode: OutputMode = 'json_schema';
  return {
    mode: () => mode,
    async ask(request, signal) {
      for (;;) {
        const asked = mode;
        let answer;
        try {
          answer = await client.complete(
            {
              messages: [
                { role: 'system', content: request.system },
                { role: 'user', content: request.user },
              ],
              responseFormat: responseFormat(asked, request.name, request.schema),
              maxTokens: request.maxTokens,
            },
            signal,
          );
        } catch (error) {
          const next = NEXT_MODE[asked];
          if (error instanceof LlmCallError && error.kind === 'rejected' && next) {
            if (mode === asked) mode = next; // another call may have stepped down meanwhile
            continue;
          }
          throw error;
        }
        if (answer.finishReason === 'length') throw new LlmCallError('truncated', 'The model ran out of answer tokens before finishing its JSON.');
        const parsed = request.schema.safeParse(extractJson(answer.content));
        if (!parsed.success)
          throw new LlmCallError('malformed', `The model's answer is not the notes JSON asked for (${z.prettifyError(parsed.error).slice(0, 200)}).`);
        return parsed.data;
      }
    },
  };
}
