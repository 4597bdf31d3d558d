import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import {
  fakeAskAnswer,
  fakeMergeAnswer,
  fakeNotesAnswer,
  fakeRerankAnswer,
  fakeRewriteAnswer,
  fakeToneAnswer,
  INVENTED_SUMMARY_SENTENCES,
} from './fake-chat-answers.ts';

/** How the next answers go wrong (or not). */
export type FakeChatBehaviour =
  | 'ok'
  /** Not JSON at all. */
  | 'malformed'
  /** JSON cut in half, finish_reason "length" (the answer hit max_tokens). */
  | 'truncated'
  /** JSON cut in half, finish_reason "stop" (a server or proxy that lost the end). */
  | 'partial'
  /** Valid JSON of the wrong shape. */
  | 'wrong-shape'
  /** The JSON wrapped in chatter and a ``` fence. */
  | 'prose'
  /** Citations of references not in the prompt, and a claim nobody made (as items and as summary sentences). */
  | 'invent'
  /** The summary as one string of prose, citing nothing (the shape asked before its sentences cited lines). */
  | 'prose-summary'
  | 'rate-limit'
  | 'server-error'
  /** Never answers. */
  | 'stall';

export type FakeChatSettings = {
  models: string[];
  /** Whether response_format json_schema / json_object are accepted; refused with a 400 like OpenAI's otherwise. */
  jsonSchema: boolean;
  jsonObject: boolean;
  /** Prompt plus max_tokens above this (counted as characters / 4) is a context_length_exceeded error. */
  contextTokens: number;
  /** Wait before every answer, as a slow model would. */
  delayMs: number;
  retryAfterSeconds: number;
};

export type FakeChatRequest = {
  authorization: string | undefined;
  headers: http.IncomingHttpHeaders;
  model: string;
  messages: { role: string; content: string }[];
  responseFormat: 'json_schema' | 'json_object' | 'text';
  maxTokens: number | undefined;
  promptTokens: number;
  /** Whether the answer was asked for as a stream (`stream: true`). */
  stream: boolean;
  status: number;
};

const DEFAULTS: FakeChatSettings = {
  models: ['fake-notes-model'],
  jsonSchema: true,
  jsonObject: true,
  contextTokens: 32_000,
  delayMs: 0,
  retryAfterSeconds: 1,
};

const BodySchema = z.object({
  model: z.string(),
  messages: z.array(z.object({ role: z.string(), content: z.string() })).min(1),
  response_format: z.object({ type: z.enum(['json_schema', 'json_object', 'text']) }).optional(),
  max_tokens: z.number().int().positive().optional(),
  stream: z.boolean().optional(),
});

const fakeTokens = (text: string) => Math.ceil(text.length / 4);

const completionOf = (model: string, text: string, finishReason: string, promptTokens: number) => ({
  id: `chatcmpl-${Math.random().toString(36).slice(2)}`,
  object: 'chat.completion',
  created: Math.floor(Date.now() / 1000),
  model,
  choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: finishReason }],
  usage: { prompt_tokens: promptTokens, completion_tokens: fakeTokens(text), total_tokens: promptTokens + fakeTokens(text) },
});

const openAiError = (message: string, type: string, code: string | null, param: string | null = null) =>
  JSON.stringify({ error: { message, type, param, code } });

/**
 * A local stand-in for an OpenAI-compatible chat-completions server (POST /v1/chat/completions,
 * GET /v1/models, Bearer auth, OpenAI error bodies). It answers like a model that read the
 * prompt: notes built from the transcript lines it was sent, citing their references; or it
 * misbehaves as told, for the next few requests or until told otherwise. It records every
 * request and the time it spent on each, so a bench can tell its time from the engine's.
 */
export async function startFakeChatService(options: { apiKey?: string } = {}) {
  const requests: FakeChatRequest[] = [];
  let settings: FakeChatSettings = { ...DEFAULTS };
  let standing: FakeChatBehaviour = 'ok';
  const queued: FakeChatBehaviour[] = [];
  let serviceMs = 0;
  /** Chat requests whose client hung up before the answer was sent. */
  let hungUp = 0;
  /** While set, answers wait for it: a model still thinking while a test changes something. */
  let held: Promise<void> | undefined;

  const send = (res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
  };

  async function chat(req: http.IncomingMessage, res: http.ServerResponse, raw: string): Promise<number | undefined> {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      json = undefined; // reported below as an invalid body
    }
    const parsed = BodySchema.safeParse(json);
    if (!parsed.success) return reply(res, 400, openAiError('Invalid request body.', 'invalid_request_error', null));
    const body = parsed.data;
    const format = body.response_format?.type ?? 'text';
    const promptTokens = body.messages.reduce((sum, m) => sum + fakeTokens(m.content), 0);
    requests.push({
      authorization: req.headers.authorization,
      headers: req.headers,
      model: body.model,
      messages: body.messages,
      responseFormat: format,
      maxTokens: body.max_tokens,
      promptTokens,
      stream: body.stream === true,
      status: 0,
    });
    const record = requests.at(-1)!;
    const status = await answer(res, body, format, promptTokens);
    record.status = status ?? 0;
    return status;
  }

  /**
   * A completion: whole, or with `stream: true` as OpenAI streams one (Server-Sent Events of
   * chat.completion.chunk objects, a few words each, the finish reason in the last, then [DONE]).
   */
  async function complete(
    res: http.ServerResponse,
    body: z.output<typeof BodySchema>,
    text: string,
    finishReason: string,
    promptTokens: number,
  ): Promise<number> {
    if (!body.stream) return reply(res, 200, JSON.stringify(completionOf(body.model, text, finishReason, promptTokens)));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const id = `chatcmpl-${requests.length}`;
    const chunk = (delta: Record<string, string>, finish: string | null) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    res.write(chunk({ role: 'assistant', content: '' }, null));
    for (const piece of text.match(/\S+\s*|\s+/g) ?? []) {
      res.write(chunk({ content: piece }, null));
      if (settings.delayMs > 0) await sleep(settings.delayMs);
    }
    res.write(chunk({}, finishReason));
    res.end('data: [DONE]\n\n');
    return 200;
  }

  function reply(res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}): number {
    send(res, status, body, headers);
    return status;
  }

  async function answer(res: http.ServerResponse, body: z.output<typeof BodySchema>, format: string, promptTokens: number): Promise<number | undefined> {
    if (!settings.models.includes(body.model)) {
      return reply(
        res,
        404,
        openAiError(`The model \`${body.model}\` does not exist or you do not have access to it.`, 'invalid_request_error', 'model_not_found'),
      );
    }
    if ((format === 'json_schema' && !settings.jsonSchema) || (format === 'json_object' && !settings.jsonObject)) {
      const message = `Invalid parameter: 'response_format' of type '${format}' is not supported with this model.`;
      return reply(res, 400, openAiError(message, 'invalid_request_error', null, 'response_format'));
    }
    const requested = promptTokens + (body.max_tokens ?? 0);
    if (requested > settings.contextTokens) {
      const message = `This model's maximum context length is ${settings.contextTokens} tokens. However, you requested ${requested} tokens (${promptTokens} in the messages, ${body.max_tokens ?? 0} in the completion). Please reduce the length of the messages or completion.`;
      return reply(res, 400, openAiError(message, 'invalid_request_error', 'context_length_exceeded', 'messages'));
    }
    const behaviour = queued.shift() ?? standing;
    if (behaviour === 'stall') return undefined;
    if (behaviour === 'rate-limit') {
      const headers = { 'retry-after': String(settings.retryAfterSeconds) };
      return reply(res, 429, openAiError('Rate limit reached for requests per minute.', 'requests', 'rate_limit_exceeded'), headers);
    }
    if (behaviour === 'server-error') return reply(res, 500, openAiError('The server had an error while processing your request.', 'server_error', null));
    if (held) await held;
    if (settings.delayMs > 0) await sleep(settings.delayMs);
    const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
    const user = body.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
    // Ask's rewrite and re-rank (features/ask/llm-answer.ts) want one line.
    if (system.startsWith('You rewrite a question about meetings') && behaviour === 'ok')
      return complete(res, body, fakeRewriteAnswer(user), 'stop', promptTokens);
    if (system.startsWith('You rank passages of meeting transcripts') && behaviour === 'ok')
      return complete(res, body, fakeRerankAnswer(user), 'stop', promptTokens);
    // The emotion provider's prompt (features/emotion) wants a score per numbered line.
    if (system.startsWith('You rate the tone of lines') && behaviour === 'ok') return complete(res, body, fakeToneAnswer(user), 'stop', promptTokens);
    // Ask's prompt (features/ask/llm-answer.ts) wants sentences citing lines, not notes.
    if (system.startsWith('You answer questions about meetings') && (behaviour === 'ok' || behaviour === 'invent')) {
      return complete(res, body, fakeAskAnswer(user, behaviour === 'invent'), 'stop', promptTokens);
    }
    const wantsSummary = system.includes('{"summary":');
    const notes = user.includes('\nParts:\n') ? fakeMergeAnswer(user, wantsSummary) : fakeNotesAnswer(user, wantsSummary);
    if (behaviour === 'invent') {
      notes.keyPoints.push({ text: 'The board approved the acquisition of a competitor for twelve million dollars.', refs: ['S1'] });
      notes.decisions.push({ text: 'Move all servers to the moon.', refs: ['S99999'] });
      (notes.summary ?? notes.summaryPoints ?? []).push(
        { text: INVENTED_SUMMARY_SENTENCES[0], refs: ['S1'] },
        { text: INVENTED_SUMMARY_SENTENCES[1], refs: ['S99999'] },
      );
    }
    const json = JSON.stringify(notes);
    const content = {
      ok: json,
      invent: json,
      'prose-summary': JSON.stringify({
        ...notes,
        ...(notes.summary ? { summary: notes.summary.map((p) => p.text).join(' ') } : { summaryPoints: notes.summaryPoints?.map((p) => p.text) }),
      }),
      malformed: '{"summaryPoints": ["The team met" "and talked"], keyPoints: [}',
      truncated: json.slice(0, Math.floor(json.length / 2)),
      partial: json.slice(0, Math.floor(json.length / 2)),
      'wrong-shape': JSON.stringify({ notes: 'The meeting went well.' }),
      prose: `Sure! Here are the notes you asked for:\n\`\`\`json\n${json}\n\`\`\`\nLet me know if you need anything else.`,
    }[behaviour];
    // Without a response_format a chatty model wraps its JSON in prose, as real ones tend to.
    const text = format === 'text' && behaviour === 'ok' ? `Here are the notes:\n${content}\nHope this helps.` : content;
    return complete(res, body, text!, behaviour === 'truncated' ? 'length' : 'stop', promptTokens);
  }

  const server = http.createServer((req, res) => {
    res.on('close', () => {
      if (!res.writableFinished && req.url === '/v1/chat/completions') hungUp++;
    });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const started = performance.now();
      const done = () => (serviceMs += performance.now() - started);
      if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) {
        send(res, 401, openAiError('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'));
      } else if (req.method === 'GET' && req.url === '/v1/models') {
        send(res, 200, JSON.stringify({ object: 'list', data: settings.models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake' })) }));
      } else if (req.method === 'POST' && req.url === '/v1/chat/completions') {
        void chat(req, res, Buffer.concat(chunks).toString('utf8')).then(done);
        return;
      } else {
        send(res, 404, openAiError(`Unknown request URL: ${req.method} ${req.url}`, 'invalid_request_error', 'unknown_url'));
      }
      done();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    /** Milliseconds spent answering chat requests, delays included: the "model's" own time. */
    serviceMs: () => serviceMs,
    /** How many chat requests the client gave up on before their answer (a stalled one, say). */
    hungUp: () => hungUp,
    /** `times` given: the next `times` chat requests behave so, then the standing behaviour resumes. */
    behave(behaviour: FakeChatBehaviour, times?: number) {
      if (times === undefined) standing = behaviour;
      else queued.push(...Array.from({ length: times }, () => behaviour));
    },
    /** Answers wait from now until the returned function is called. */
    hold(): () => void {
      let release!: () => void;
      held = new Promise<void>((resolve) => (release = resolve));
      return () => {
        held = undefined;
        release();
      };
    },
    configure(changes: Partial<FakeChatSettings>) {
      settings = { ...settings, ...changes };
    },
    reset() {
      settings = { ...DEFAULTS };
      standing = 'ok';
      queued.length = 0;
      requests.length = 0;
      serviceMs = 0;
      hungUp = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type FakeChatService = Awaited<ReturnType<typeof startFakeChatService>>;
