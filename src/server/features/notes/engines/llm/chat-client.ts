import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import { z } from 'zod';
import { LlmCallError } from './llm-errors.ts';

export type ChatMessage = { role: 'system' | 'user'; content: string };

export type ResponseFormat = { type: 'json_schema'; json_schema: { name: string; schema: Record<string, unknown>; strict: boolean } } | { type: 'json_object' };

export type ChatRequest = { messages: ChatMessage[]; responseFormat: ResponseFormat | undefined; maxTokens: number };

export type ChatAnswer = { content: string; finishReason: string | null };

export type RetryPolicy = {
  /** Further tries after a 429, a 5xx or a dropped connection (not after a timeout: the chunk policy retries those). */
  maxRetries: number;
  /** First backoff when the server gives no Retry-After; doubles on each retry. */
  baseDelayMs: number;
  /** A Retry-After longer than this ends the run ("try later") instead of holding the job. */
  maxRetryAfterMs: number;
};

export type ChatClientOptions = {
  url: string;
  apiKey?: string | undefined;
  model: string;
  timeoutMs: number;
  fetch?: typeof fetch | undefined;
  retry?: Partial<RetryPolicy> | undefined;
};

export type ChatClient = {
  complete: (request: ChatRequest, signal: AbortSignal) => Promise<ChatAnswer>;
  /**
   * The same request answered as it is written (`stream: true`): `onText` hears each piece. Retried
   * like `complete` until the first piece arrives; an answer that breaks off after that fails
   * ('malformed'), since what was heard cannot be taken back.
   */
  stream: (request: ChatRequest, signal: AbortSignal, onText: (text: string) => void) => Promise<ChatAnswer>;
  /** Model ids the server lists, or undefined when it has no /models (then nothing can be said). */
  listModels: (signal: AbortSignal) => Promise<string[] | undefined>;
};

const DEFAULT_RETRY: RetryPolicy = { maxRetries: 2, baseDelayMs: 500, maxRetryAfterMs: 60_000 };

// Every answer is untrusted input: only what we read is checked, the rest is ignored.
const CompletionSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable().optional() }), finish_reason: z.string().nullable().optional() })).min(1),
});
const ChunkSchema = z.object({
  choices: z.array(z.object({ delta: z.object({ content: z.string().nullable().optional() }).optional(), finish_reason: z.string().nullable().optional() })),
});
const ModelListSchema = z.object({ data: z.array(z.object({ id: z.string() })) });

const CONTEXT_LENGTH = /context[ _-]?(length|size|window)|maximum context|too many tokens|prompt is too long|exceeds? the (available )?context/i;

/** "/v1" is where these servers mount the API; a bare host ("http://localhost:11434") gets it added. */
export function apiBase(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return /\/v\d+$/.test(trimmed) ? trimmed : `${trimmed}/v1`;
}

function retryAfterMs(headers: Headers | undefined): number | undefined {
  const ms = Number(headers?.get('retry-after-ms'));
  if (headers?.get('retry-after-ms') && Number.isFinite(ms)) return ms;
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * Runs one request under its own signal that follows the run's. The SDK never removes the abort
 * listener it adds to the signal it is given, so handing it the run's signal on every request
 * of a long meeting would pile listeners up on it.
 */
async function perRequest<T>(signal: AbortSignal, request: (requestSignal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const follow = () => controller.abort(signal.reason);
  signal.addEventListener('abort', follow, { once: true });
  try {
    return await request(controller.signal);
  } finally {
    signal.removeEventListener('abort', follow);
  }
}

/**
 * Chat completions over the official `openai` SDK with its own retries switched off: the SDK
 * sleeps out any Retry-After however long, and not abortably, so the retry loop here caps the
 * wait, honours the signal, and leaves timeouts to the chunk policy so a stalled server costs one
 * timeout per try, not three.
 */
export function createChatClient(options: ChatClientOptions): ChatClient {
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  const host = new URL(apiBase(options.url)).host;
  const redact = (text: string) => (options.apiKey ? text.split(options.apiKey).join('***') : text);
  const sdk = new OpenAI({
    baseURL: apiBase(options.url),
    // The SDK insists on a key; without one, the header is left out (local servers need none) and
    // no OPENAI_* variable is read: they may hold keys meant for OpenAI, not for this endpoint.
    apiKey: options.apiKey ?? 'none',
    adminAPIKey: null,
    organization: null,
    project: null,
    defaultHeaders: options.apiKey ? {} : { Authorization: null },
    timeout: options.timeoutMs,
    maxRetries: 0,
    logLevel: 'off',
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });

  function classify(error: unknown, signal: AbortSignal): LlmCallError {
    if (signal.aborted) throw signal.reason;
    if (error instanceof LlmCallError) return error;
    if (error instanceof OpenAI.APIConnectionTimeoutError) {
      const limit = options.timeoutMs >= 1000 ? `${Math.round(options.timeoutMs / 1000)} s` : `${options.timeoutMs} ms`;
      return new LlmCallError('timeout', `The notes LLM did not answer within ${limit}.`, { cause: error });
    }
    if (!(error instanceof OpenAI.APIError) || error.status === undefined) {
      return new LlmCallError('unreachable', `The notes LLM could not be reached (${host}).`, { cause: error });
    }
    const status = error.status;
    const detail = redact(error.message);
    const code = String(error.code ?? '');
    if (status === 401 || status === 403) return new LlmCallError('auth', `The notes LLM refused the API key (HTTP ${status}).`, { status });
    if (status === 404)
      return new LlmCallError('not-found', `The notes LLM at ${host} has no model "${options.model}" or no chat endpoint (${detail}).`, { status });
    if (status === 429) return new LlmCallError('rate-limited', `The notes LLM is rate limiting requests (${detail}).`, { status });
    if (status === 413 || code === 'context_length_exceeded' || CONTEXT_LENGTH.test(detail)) {
      return new LlmCallError('context-length', `The request was too long for the model's context (${detail}).`, { status });
    }
    if (status === 408 || status === 409 || status >= 500) return new LlmCallError('server', `The notes LLM failed (${detail}).`, { status });
    return new LlmCallError('rejected', `The notes LLM refused the request (${detail}).`, { status });
  }

  async function withRetries<T>(call: () => Promise<T>, signal: AbortSignal): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        const failure = classify(error, signal);
        const transient = failure.kind === 'rate-limited' || failure.kind === 'server' || failure.kind === 'unreachable';
        if (!transient || attempt >= retry.maxRetries) throw failure;
        const asked = error instanceof OpenAI.APIError ? retryAfterMs(error.headers) : undefined;
        if (asked !== undefined && asked > retry.maxRetryAfterMs) {
          throw new LlmCallError('rate-limited', `The notes LLM asks to wait ${Math.ceil(asked / 1000)} s; try again later.`, { status: failure.status });
        }
        await sleep(asked ?? retry.baseDelayMs * 2 ** attempt, undefined, { signal }).catch((error: unknown) => {
          signal.throwIfAborted(); // the caller's reason, not the timer's generic AbortError
          throw error;
        });
      }
    }
  }

  return {
    async complete(request, signal) {
      const raw: unknown = await withRetries(
        () =>
          perRequest(signal, (requestSignal) =>
            sdk.chat.completions.create(
              {
                model: options.model,
                messages: request.messages,
                max_tokens: request.maxTokens,
                temperature: 0,
                stream: false,
                ...(request.responseFormat ? { response_format: request.responseFormat } : {}),
              },
              { signal: requestSignal },
            ),
          ),
        signal,
      );
      const parsed = CompletionSchema.safeParse(raw);
      if (!parsed.success) throw new LlmCallError('malformed', 'The notes LLM answered with something that is not a chat completion.');
      const choice = parsed.data.choices[0]!;
      return { content: choice.message.content ?? '', finishReason: choice.finish_reason ?? null };
    },
    async stream(request, signal, onText) {
      let heard = false;
      return withRetries(
        () =>
          perRequest(signal, async (requestSignal) => {
            try {
              const chunks = await sdk.chat.completions.create(
                {
                  model: options.model,
                  messages: request.messages,
                  max_tokens: request.maxTokens,
                  temperature: 0,
                  stream: true,
                  ...(request.responseFormat ? { response_format: request.responseFormat } : {}),
                },
                { signal: requestSignal },
              );
              let content = '';
              let finishReason: string | null = null;
              for await (const raw of chunks as AsyncIterable<unknown>) {
                const chunk = ChunkSchema.safeParse(raw);
                if (!chunk.success) throw new LlmCallError('malformed', 'The notes LLM streamed something that is not a chat completion.');
                const choice = chunk.data.choices[0];
                const text = choice?.delta?.content ?? '';
                if (text) {
                  heard = true;
                  content += text;
                  onText(text);
                }
                finishReason = choice?.finish_reason ?? finishReason;
              }
              return { content, finishReason };
            } catch (error) {
              if (!heard || signal.aborted) throw error;
              throw new LlmCallError('malformed', 'The notes LLM stopped in the middle of its answer.', { cause: error });
            }
          }),
        signal,
      );
    },
    async listModels(signal) {
      try {
        const raw: unknown = await withRetries(() => perRequest(signal, (requestSignal) => sdk.get('/models', { signal: requestSignal })), signal);
        const parsed = ModelListSchema.safeParse(raw);
        return parsed.success ? parsed.data.data.map((m) => m.id) : undefined;
      } catch (error) {
        if (error instanceof LlmCallError && error.kind === 'not-found') return undefined; // a server without /models: nothing to check against
        throw error;
      }
    },
  };
}
