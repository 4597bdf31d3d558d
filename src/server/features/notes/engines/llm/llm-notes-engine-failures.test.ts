import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeChatService, type FakeChatService } from '#tests/support/fake-openai-chat.ts';
import { syntheticMeeting } from '#tests/support/notes-transcripts.ts';
import { createStandInLocalEngine } from '#tests/support/stand-in-local-notes-engine.ts';
import { NotesLlmError } from './llm-errors.ts';
import { createLlmNotesEngine, type LlmNotesEngineOptions } from './llm-notes-engine.ts';

const KEY = 'sk-test-failures';
let fake: FakeChatService;
beforeAll(async () => {
  fake = await startFakeChatService({ apiKey: KEY });
});
afterAll(() => fake.close());
const standIn = createStandInLocalEngine();
beforeEach(() => {
  fake.reset();
  standIn.reset();
});

const engine = (overrides: Partial<LlmNotesEngineOptions> = {}) =>
  createLlmNotesEngine({
    url: fake.url,
    apiKey: KEY,
    model: 'fake-notes-model',
    contextTokens: 8192,
    timeoutMs: 5000,
    local: standIn.engine,
    retry: { baseDelayMs: 10 },
    ...overrides,
  });
const meeting = syntheticMeeting(5);
const run = (e = engine(), signal = AbortSignal.timeout(30_000)) => e.generate(meeting, { signal });
const statuses = () => fake.requests.map((r) => r.status);
const transcriptRequests = () => fake.requests.filter((r) => r.messages.at(-1)!.content.includes('\nTranscript:\n'));
const mergeRequests = () => fake.requests.filter((r) => r.messages.at(-1)!.content.includes('\nParts:\n'));
const runError = async (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('answers the engine cannot use', () => {
  it('retries a malformed answer once and uses the second', async () => {
    fake.behave('malformed', 1);
    const result = await run();
    expect(fake.requests).toHaveLength(2);
    expect(result).toMatchObject({ localFallbackParts: 0 });
    expect(result.keyPoints.length).toBeGreaterThan(0);
  });

  it('retries an answer whose summary cites nothing (one string of prose) like a malformed one, and uses the cited second', async () => {
    fake.behave('prose-summary', 1);
    const result = await run();
    expect(fake.requests).toHaveLength(2);
    expect(result.localFallbackParts).toBe(0);
    expect(result.summarySentences!.length).toBeGreaterThan(0);
    expect(result.summarySentences!.map((s) => s.text).join(' ')).toBe(result.summary);
  });

  it.each(['partial', 'wrong-shape'] as const)('retries a %s answer like a malformed one', async (behaviour) => {
    fake.behave(behaviour, 1);
    const result = await run();
    expect(fake.requests).toHaveLength(2);
    expect(result.localFallbackParts).toBe(0);
  });

  it('splits a chunk that keeps failing, tries each half once, and covers failing halves with the local engine, counted', async () => {
    fake.behave('malformed');
    const result = await run();
    expect(transcriptRequests()).toHaveLength(4); // the chunk twice, then each half once
    expect(mergeRequests()).toHaveLength(2); // merging the halves fails too: joined without the model
    expect(result.localFallbackParts).toBe(2);
    expect(standIn.parts.flatMap((p) => p.segments.map((s) => s.id))).toEqual(meeting.segments.map((s) => s.id));
    expect(result.keyPoints.map((k) => k.segmentIds[0])).toEqual(standIn.parts.map((p) => p.segments[0]!.id));
    // The summary is made of the local parts' cited sentences.
    expect(result.summarySentences!.map((s) => s.segmentIds)).toEqual(standIn.parts.map((p) => [p.segments[0]!.id]));
    expect(result.engine).toBe('llm');
  });

  it('splits at once when the answer was cut off at the token limit, without asking the same again', async () => {
    fake.behave('truncated', 1);
    const result = await run();
    expect(transcriptRequests()).toHaveLength(3); // the whole once, then two halves (then a merge of them)
    expect(mergeRequests()).toHaveLength(1);
    const prompts = fake.requests.map((r) => r.messages.at(-1)!.content);
    expect(new Set(prompts).size).toBe(prompts.length);
    expect(result.localFallbackParts).toBe(0);
  });
});

describe('a context too small for the chunk', () => {
  it('splits at once on context_length_exceeded, down to halves that fit, dropping nothing', async () => {
    fake.configure({ contextTokens: 2600 }); // the engine believes in 8192
    const result = await run();
    expect(statuses()[0]).toBe(400);
    const answered = fake.requests.filter((r) => r.status === 200 && r.messages.at(-1)!.content.includes('Transcript:'));
    const refs = answered.flatMap((r) => [...r.messages.at(-1)!.content.matchAll(/^\[(S\d+)\]/gm)].map((m) => m[1]));
    expect(refs).toEqual(meeting.segments.map((_, i) => `S${i + 1}`));
    expect(result.localFallbackParts).toBe(0);
  });
});

describe('an endpoint in trouble', () => {
  it('waits out a 429 for the Retry-After seconds and goes on', async () => {
    fake.configure({ retryAfterSeconds: 1 });
    fake.behave('rate-limit', 1);
    const started = performance.now();
    const result = await run();
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(statuses()).toEqual([429, 200]);
    expect(result.localFallbackParts).toBe(0);
  });

  it('ends the run with a retryable error when Retry-After is longer than it will wait', async () => {
    fake.configure({ retryAfterSeconds: 600 });
    fake.behave('rate-limit');
    const error = await runError(run());
    expect(error).toBeInstanceOf(NotesLlmError);
    expect(error).toMatchObject({ retryable: true, message: 'The notes LLM asks to wait 600 s; try again later.' });
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a 500 with backoff and goes on', async () => {
    fake.behave('server-error', 2);
    const result = await run();
    expect(statuses()).toEqual([500, 500, 200]);
    expect(result.localFallbackParts).toBe(0);
  });

  it('covers a part with the local engine when the server keeps failing it', async () => {
    fake.behave('server-error');
    const result = await run();
    // 3 HTTP tries per call: the chunk twice, then each half once; the merge twice.
    expect(transcriptRequests()).toHaveLength(12);
    expect(mergeRequests()).toHaveLength(6);
    expect(result.localFallbackParts).toBe(2);
  });

  it('retries a request that timed out, once', async () => {
    fake.behave('stall', 1);
    // Long enough that the answered retry never times out on a loaded machine (at 300 ms, it did in CI).
    const result = await run(engine({ timeoutMs: 2_000 }));
    expect(fake.requests).toHaveLength(2);
    expect(result.localFallbackParts).toBe(0);
  });

  it('ends the run when the server stops answering, after three timeouts in a row', async () => {
    fake.behave('stall');
    const started = performance.now();
    const error = await runError(run(engine({ timeoutMs: 300 })));
    expect(error).toBeInstanceOf(NotesLlmError);
    expect(error).toMatchObject({ retryable: true });
    expect(String(error)).toContain('did not answer within');
    expect(fake.requests).toHaveLength(3);
    expect(performance.now() - started).toBeLessThan(5000); // three 300 ms timeouts, no long back-off between them
  });

  it('answers slowly but within the timeout: notes as usual', async () => {
    fake.configure({ delayMs: 400 });
    const result = await run(engine({ timeoutMs: 2000 }));
    expect(statuses()).toEqual([200]);
    expect(result.keyPoints.length).toBeGreaterThan(0);
  });

  it('refuses the key: a clear, not retryable error that does not repeat the key', async () => {
    const error = await runError(run(engine({ apiKey: 'sk-wrong-key-123' })));
    expect(error).toBeInstanceOf(NotesLlmError);
    expect(error).toMatchObject({ retryable: false, message: 'The notes LLM refused the API key (HTTP 401).' });
    expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toContain('sk-wrong-key-123');
    expect(standIn.parts).toHaveLength(0);
  });

  it('has no such model: a clear, not retryable error', async () => {
    const error = await runError(run(engine({ model: 'llama3.2' })));
    expect(error).toMatchObject({ retryable: false });
    expect(String(error)).toContain('no model "llama3.2"');
  });

  it('cannot be reached: a retryable error, not local notes', async () => {
    const error = await runError(run(engine({ url: 'http://127.0.0.1:9' })));
    expect(error).toBeInstanceOf(NotesLlmError);
    expect(error).toMatchObject({ retryable: true, message: 'The notes LLM could not be reached (127.0.0.1:9).' });
    expect(standIn.parts).toHaveLength(0);
  });
});

describe('abort', () => {
  it('stops a request in flight at once', async () => {
    fake.behave('stall');
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('job cancelled')), 100);
    const started = performance.now();
    await expect(run(engine({ timeoutMs: 10_000 }), controller.signal)).rejects.toThrow('job cancelled');
    expect(performance.now() - started).toBeLessThan(5000); // not the 10 s timeout
  });

  it('stops while waiting out a Retry-After', async () => {
    fake.configure({ retryAfterSeconds: 30 });
    fake.behave('rate-limit');
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('job cancelled')), 100);
    const started = performance.now();
    await expect(run(engine(), controller.signal)).rejects.toThrow('job cancelled');
    expect(performance.now() - started).toBeLessThan(5000); // not the 30 s Retry-After
  });

  it('does not start when already aborted', async () => {
    await expect(run(engine(), AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
    expect(fake.requests).toHaveLength(0);
  });
});
