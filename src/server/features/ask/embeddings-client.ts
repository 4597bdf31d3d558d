import { z } from 'zod';

/**
 * An OpenAI-compatible embeddings endpoint (POST {base}/embeddings: OpenAI, Ollama's /v1, llama.cpp,
 * vLLM, LM Studio). Plain fetch: one request shape, a time limit per request, and every answer checked
 * (an answer of the wrong shape or the wrong count is an error, never a vector taken on trust).
 */
export type EmbeddingsClient = {
  model: string;
  /** One vector per text, in order; throws EmbeddingsError on any failure. */
  embed: (texts: string[], signal?: AbortSignal) => Promise<Float32Array[]>;
};

export type EmbeddingsClientOptions = { url: string; apiKey?: string | undefined; model: string; timeoutMs: number };

export class EmbeddingsError extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = 'EmbeddingsError';
  }
}

const EmbeddingsAnswerSchema = z.object({
  data: z.array(z.object({ index: z.number().int().nonnegative().optional(), embedding: z.array(z.number()).min(1) })),
});

/** "/v1" is where these servers mount the API; a bare host ("http://localhost:11434") gets it added. */
const apiBase = (url: string) => {
  const trimmed = url.replace(/\/+$/, '');
  return /\/v\d+$/.test(trimmed) ? trimmed : `${trimmed}/v1`;
};

export function createEmbeddingsClient(options: EmbeddingsClientOptions): EmbeddingsClient {
  const endpoint = `${apiBase(options.url)}/embeddings`;
  const host = new URL(endpoint).host;
  return {
    model: options.model,
    async embed(texts, signal) {
      if (texts.length === 0) return [];
      const timeout = AbortSignal.timeout(options.timeoutMs);
      let response: Response;
      try {
        response = await fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
          body: JSON.stringify({ model: options.model, input: texts, encoding_format: 'float' }),
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (timeout.aborted) throw new EmbeddingsError(`The embeddings server did not answer within ${options.timeoutMs} ms.`, { cause: error });
        throw new EmbeddingsError(`The embeddings server could not be reached (${host}).`, { cause: error });
      }
      let body: unknown;
      try {
        body = await response.json();
      } catch (error) {
        if (timeout.aborted) throw new EmbeddingsError(`The embeddings server did not finish its answer within ${options.timeoutMs} ms.`, { cause: error });
        throw new EmbeddingsError(`The embeddings server answered HTTP ${response.status} with something that is not JSON.`, { cause: error });
      }
      if (!response.ok) throw new EmbeddingsError(`The embeddings server refused the request (HTTP ${response.status}).`);
      const parsed = EmbeddingsAnswerSchema.safeParse(body);
      if (!parsed.success || parsed.data.data.length !== texts.length) {
        throw new EmbeddingsError('The embeddings server answered with something that is not one embedding per text.');
      }
      const ordered = [...parsed.data.data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
      const dimensions = ordered[0]!.embedding.length;
      if (ordered.some((d) => d.embedding.length !== dimensions || d.embedding.some((v) => !Number.isFinite(v)))) {
        throw new EmbeddingsError('The embeddings server answered vectors of different lengths or with values that are not numbers.');
      }
      return ordered.map((d) => Float32Array.from(d.embedding));
    },
  };
}
