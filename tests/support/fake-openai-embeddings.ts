import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

/**
 * A local stand-in for an OpenAI-compatible embeddings server (POST /v1/embeddings, Bearer auth,
 * OpenAI error bodies; `encoding_format` float or base64 as OpenAI answers them). Its "model" is a
 * hashed bag of words: each word (lower-cased, a plural's s dropped, short function words left out)
 * adds ±1 to one of `dimensions` coordinates (a few words of one meaning share theirs), so texts sharing words are near and the vectors are the
 * same on every run. It misbehaves as told, for the next few requests or until told otherwise.
 */
export type FakeEmbeddingsBehaviour =
  | 'ok'
  /** HTTP 500 with OpenAI's error body. */
  | 'server-error'
  /** Not JSON at all. */
  | 'malformed'
  /** JSON of the right shape with one embedding too few. */
  | 'wrong-count'
  /** Never answers. */
  | 'stall';

const BodySchema = z.object({
  model: z.string(),
  input: z.union([z.string(), z.array(z.string()).min(1)]),
  encoding_format: z.enum(['float', 'base64']).optional(),
});

const SKIP = new Set([
  'the',
  'a',
  'an',
  'and',
  'or',
  'of',
  'to',
  'in',
  'on',
  'for',
  'is',
  'are',
  'was',
  'we',
  'it',
  'that',
  'this',
  'what',
  'did',
  'do',
  'about',
  'with',
  'be',
  'i',
  'you',
  'how',
  'much',
  'many',
  'there',
]);

/**
 * A few words the fake model reads as one meaning, as a real model places them near each other: what
 * a search for the words alone cannot find (tests of the fusion ask "money" of a line about the budget).
 */
const SAME_MEANING: Record<string, string> = { money: 'money', budget: 'money', cost: 'money', price: 'money', euro: 'money', dollar: 'money', spend: 'money' };

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The fake model's vector of a text. */
export function fakeEmbedding(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const raw of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (SKIP.has(raw)) continue;
    const singular = raw.length > 3 && raw.endsWith('s') ? raw.slice(0, -1) : raw;
    const word = SAME_MEANING[singular] ?? singular;
    const hash = fnv1a(word);
    vector[hash % dimensions]! += hash & 0x80000000 ? -1 : 1;
  }
  return vector;
}

const openAiError = (message: string, type: string, code: string | null) => JSON.stringify({ error: { message, type, param: null, code } });

export async function startFakeEmbeddingsService(options: { apiKey?: string; models?: string[]; dimensions?: number } = {}) {
  const models = options.models ?? ['fake-embed'];
  const dimensions = options.dimensions ?? 256;
  const requests: { model: string; inputs: string[]; authorization: string | undefined }[] = [];
  let standing: FakeEmbeddingsBehaviour = 'ok';
  const queued: FakeEmbeddingsBehaviour[] = [];

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: string) => res.writeHead(status, { 'content-type': 'application/json' }).end(body);
      if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) {
        return send(401, openAiError('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'));
      }
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
        return send(404, openAiError(`Unknown request URL: ${req.method} ${req.url}`, 'invalid_request_error', 'unknown_url'));
      }
      let json: unknown;
      try {
        json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        json = undefined; // reported below as an invalid body
      }
      const parsed = BodySchema.safeParse(json);
      if (!parsed.success) return send(400, openAiError('Invalid request body.', 'invalid_request_error', null));
      const body = parsed.data;
      const inputs = typeof body.input === 'string' ? [body.input] : body.input;
      requests.push({ model: body.model, inputs, authorization: req.headers.authorization });
      if (!models.includes(body.model)) {
        return send(404, openAiError(`The model \`${body.model}\` does not exist.`, 'invalid_request_error', 'model_not_found'));
      }
      const behaviour = queued.shift() ?? standing;
      if (behaviour === 'stall') return; // the connection stays open; the client's time limit ends it
      if (behaviour === 'server-error') return send(500, openAiError('The server had an error while processing your request.', 'server_error', null));
      if (behaviour === 'malformed') return send(200, '{"data": [{"embedding": [0.1, 0.2,');
      const vectors = inputs.map((text) => fakeEmbedding(text, dimensions));
      const data = (behaviour === 'wrong-count' ? vectors.slice(1) : vectors).map((embedding, index) => ({
        object: 'embedding',
        index,
        embedding: body.encoding_format === 'base64' ? Buffer.from(Float32Array.from(embedding).buffer).toString('base64') : embedding,
      }));
      const tokens = inputs.reduce((sum, text) => sum + Math.ceil(text.length / 4), 0);
      send(200, JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: tokens, total_tokens: tokens } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    /** `times` given: the next `times` requests behave so, then the standing behaviour resumes. */
    behave(behaviour: FakeEmbeddingsBehaviour, times?: number) {
      if (times === undefined) standing = behaviour;
      else queued.push(...Array.from({ length: times }, () => behaviour));
    },
    reset() {
      standing = 'ok';
      queued.length = 0;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type FakeEmbeddingsService = Awaited<ReturnType<typeof startFakeEmbeddingsService>>;
