import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStandInLocalEngine } from '#tests/support/stand-in-local-notes-engine.ts';
import { startFakeChatService, type FakeChatService } from '#tests/support/fake-openai-chat.ts';
import { syntheticMeeting } from '#tests/support/notes-transcripts.ts';
import { INVENTED_SUMMARY_SENTENCES } from '#tests/support/fake-chat-answers.ts';
import { checkCitedItem, indexTranscript } from '../../citations.ts';
import { createLlmNotesEngine, type LlmNotesEngineOptions } from './llm-notes-engine.ts';

const KEY = 'sk-test-notes';
let fake: FakeChatService;
beforeAll(async () => {
  fake = await startFakeChatService({ apiKey: KEY });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const standIn = createStandInLocalEngine();
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
const run = (e: ReturnType<typeof engine>, minutes: number, onProgress?: (part: number, parts: number) => void) =>
  e.generate(syntheticMeeting(minutes), { signal: AbortSignal.timeout(30_000), ...(onProgress ? { onProgress } : {}) });
const refsIn = (text: string) => [...text.matchAll(/^\[(S\d+)\]/gm)].map((m) => m[1]!);
const mapRequests = () => fake.requests.filter((r) => r.status === 200 && refsIn(r.messages.at(-1)!.content).length > 0);

describe('the LLM notes engine on a short meeting', () => {
  it('asks once, with the model, the key, a json_schema and an answer budget, and returns notes citing real segments', async () => {
    const progress: string[] = [];
    const result = await run(engine(), 5, (part, parts) => progress.push(`${part}/${parts}`));
    expect(fake.requests).toHaveLength(1);
    const sent = fake.requests[0]!;
    expect(sent).toMatchObject({ authorization: `Bearer ${KEY}`, model: 'fake-notes-model', responseFormat: 'json_schema', maxTokens: 2048 });
    expect(sent.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(progress).toEqual(['1/1']);
    expect(result).toMatchObject({ engine: 'llm', droppedUncited: 0, localFallbackParts: 0 });
    expect(result.summary.split(/\s+/).length).toBeGreaterThanOrEqual(40);
    const ids = new Set(syntheticMeeting(5).segments.map((s) => s.id));
    const cited = [...result.keyPoints, ...result.topics, ...result.actionItems, ...result.decisions].flatMap((i) => i.segmentIds);
    expect(cited.length).toBeGreaterThan(10);
    expect(cited.every((id) => ids.has(id))).toBe(true);
    expect(result.topics[0]!.startMs).toBe(0);
  });

  it('asks for the summary as sentences citing lines, and gives them checked, making the summary', async () => {
    const meeting = syntheticMeeting(5);
    const result = await engine().generate(meeting, { signal: AbortSignal.timeout(30_000) });
    expect(fake.requests[0]!.messages[0]!.content).toContain('{"summary": [{"text": "one sentence of the summary", "refs": ["S1", "S2"]}]');
    const sentences = result.summarySentences ?? [];
    expect(sentences.length).toBeGreaterThan(1);
    expect(sentences.map((s) => s.text).join(' ')).toBe(result.summary);
    const index = indexTranscript(meeting);
    for (const sentence of sentences) expect(checkCitedItem(sentence, index)).toMatchObject({ ok: true, segmentIds: sentence.segmentIds });
  });

  it('maps owners to speakers: "I\'ll" to whoever said it (unnamed: their label), a first name to the named speaker', async () => {
    const result = await run(engine(), 5);
    const proposal = result.actionItems.find((a) => a.text.startsWith("I'll write"))!;
    expect(proposal).toMatchObject({ assignee: 'Speaker 3', assigneeSpeakerId: 'spk-3', dueText: 'by Friday', due: '2026-03-06' });
    const tickets = result.actionItems.find((a) => a.text.startsWith('Ben will'))!;
    expect(tickets).toMatchObject({ assignee: 'Ben', assigneeSpeakerId: 'spk-2', dueText: 'tomorrow', due: '2026-03-05' });
  });

  it('drops and counts invented citations: a reference never shown and a claim nobody made', async () => {
    fake.behave('invent');
    const result = await run(engine(), 5);
    expect(result.droppedUncited).toBe(2); // the items; a summary sentence is no item
    expect(result.keyPoints.map((k) => k.text).join(' ')).not.toContain('acquisition');
    expect(result.decisions.map((d) => d.text).join(' ')).not.toContain('moon');
    // The summary leaves out the sentence its line never said and the one citing a line never shown.
    for (const invented of INVENTED_SUMMARY_SENTENCES) expect(result.summary).not.toContain(invented);
    expect(result.summarySentences!.length).toBeGreaterThan(1);
    expect(result.summarySentences!.map((s) => s.text).join(' ')).toBe(result.summary);
  });

  it('sends no Authorization header when no key is configured, whatever OPENAI_* variables hold', async () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-meant-for-openai');
    vi.stubEnv('OPENAI_ADMIN_KEY', 'sk-admin-meant-for-openai');
    vi.stubEnv('OPENAI_ORG_ID', 'org-secret');
    const open = await startFakeChatService();
    try {
      await createLlmNotesEngine({ url: open.url, model: 'fake-notes-model', contextTokens: 8192, timeoutMs: 5000, local: standIn.engine }).generate(
        syntheticMeeting(2),
        {
          signal: AbortSignal.timeout(10_000),
        },
      );
      expect(open.requests[0]!.authorization).toBeUndefined();
      expect(JSON.stringify(open.requests[0]!.headers)).not.toMatch(/sk-|org-secret/);
      await run(engine(), 2);
      expect(fake.requests[0]!.authorization).toBe(`Bearer ${KEY}`);
      expect(JSON.stringify(fake.requests[0]!.headers)).not.toMatch(/meant-for-openai|org-secret/);
    } finally {
      vi.unstubAllEnvs();
      await open.close();
    }
  });

  it('returns empty notes for a transcript without speech, asking nothing', async () => {
    const silent = { ...syntheticMeeting(1), segments: [] };
    const result = await engine().generate(silent, { signal: AbortSignal.timeout(5000) });
    expect(result).toMatchObject({ summary: '', keyPoints: [], engine: 'llm' });
    expect(fake.requests).toHaveLength(0);
  });
});

describe('the LLM notes engine on a long meeting (map-reduce)', () => {
  it('reads an hour in chunks of whole turns under the context, covers every line once, reports part N of M and merges', async () => {
    fake.configure({ contextTokens: 4096 });
    const progress: Array<[number, number]> = [];
    const meeting = syntheticMeeting(60);
    const result = await engine({ contextTokens: 4096 }).generate(meeting, {
      signal: AbortSignal.timeout(30_000),
      onProgress: (p, n) => progress.push([p, n]),
    });
    expect(fake.requests.every((r) => r.status === 200)).toBe(true);
    const chunks = mapRequests();
    expect(chunks.length).toBeGreaterThanOrEqual(5);
    const sentRefs = chunks.flatMap((r) => refsIn(r.messages.at(-1)!.content));
    expect(sentRefs).toEqual(meeting.segments.map((_, i) => `S${i + 1}`));
    for (const r of chunks) {
      const lines = r.messages
        .at(-1)!
        .content.split('\n')
        .filter((l) => l.startsWith('[S'));
      const next = meeting.segments[Number(refsIn(lines.at(-1)!)[0]!.slice(1))];
      const last = meeting.segments[Number(refsIn(lines.at(-1)!)[0]!.slice(1)) - 1]!;
      if (next) expect(next.speakerId).not.toBe(last.speakerId); // chunks end where a turn ends
    }
    const parts = chunks.length + 1;
    expect(progress).toEqual(Array.from({ length: parts }, (_, i) => [i + 1, parts]));
    const merges = fake.requests.filter((r) => r.messages.at(-1)!.content.includes('\nParts:\n'));
    expect(merges.length).toBeGreaterThanOrEqual(2); // too many parts for one merge: merged in groups first
    expect(result).toMatchObject({ engine: 'llm', droppedUncited: 0, localFallbackParts: 0 });
    expect(result.topics.at(-1)!.endMs).toBeGreaterThan(50 * 60_000);
    expect(result.summary.split(/\s+/).length).toBeGreaterThanOrEqual(40);
    expect(new Set(result.actionItems.map((a) => a.text)).size).toBe(result.actionItems.length); // merged, de-duplicated
    // The merged summary's sentences keep the references of the parts' points they came from.
    const index = indexTranscript(meeting);
    expect(result.summarySentences!.map((s) => s.text).join(' ')).toBe(result.summary);
    for (const sentence of result.summarySentences!) expect(checkCitedItem(sentence, index).ok).toBe(true);
  });
});

describe('structured output negotiation', () => {
  it('steps down to json_object when json_schema is refused, and asks json_object first from then on', async () => {
    fake.configure({ jsonSchema: false });
    const e = engine();
    await run(e, 3);
    expect(fake.requests.map((r) => [r.responseFormat, r.status])).toEqual([
      ['json_schema', 400],
      ['json_object', 200],
    ]);
    await run(e, 3);
    expect(fake.requests.slice(2).map((r) => r.responseFormat)).toEqual(['json_object']);
  });

  it('steps down to plain text and picks the JSON out of the prose when neither format is supported', async () => {
    fake.configure({ jsonSchema: false, jsonObject: false });
    const e = engine();
    const result = await run(e, 3);
    expect(fake.requests.map((r) => r.responseFormat)).toEqual(['json_schema', 'json_object', 'text']);
    expect(result.keyPoints.length).toBeGreaterThan(0);
    expect(result.summarySentences!.length).toBeGreaterThan(0);
    expect(result.summarySentences!.map((s) => s.text).join(' ')).toBe(result.summary);
    await run(e, 3);
    expect(fake.requests.slice(3).map((r) => r.responseFormat)).toEqual(['text']);
  });

  it('reads JSON wrapped in chatter and a code fence even when a format was asked for', async () => {
    fake.behave('prose');
    const result = await run(engine(), 3);
    expect(fake.requests).toHaveLength(1);
    expect(result.keyPoints.length).toBeGreaterThan(0);
  });
});

describe('availability', () => {
  it('is available when the server answers with the model listed', async () => {
    expect(await engine().checkAvailability()).toEqual({ available: true });
    expect(await engine({ model: 'fake-notes-model:latest' }).checkAvailability()).toMatchObject({ available: false });
  });

  it('is unavailable, saying why, with a wrong key, a missing model or nobody listening', async () => {
    const wrongKey = await engine({ apiKey: 'sk-wrong' }).checkAvailability();
    expect(wrongKey).toEqual({ available: false, reason: 'The notes LLM refused the API key (HTTP 401).' });
    const missing = await engine({ model: 'llama3.2' }).checkAvailability();
    expect(missing).toEqual({ available: false, reason: 'The notes LLM has no model "llama3.2" (it serves fake-notes-model).' });
    const nobody = await engine({ url: 'http://127.0.0.1:9/v1' }).checkAvailability();
    expect(nobody).toEqual({ available: false, reason: 'The notes LLM could not be reached (127.0.0.1:9).' });
  });
});
