import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AskResponseSchema, MODEL_FAILED_NOTICE, NO_MODEL_NOTICE, NOTHING_FOUND_NOTICE, type AskResponse } from '#shared/contracts/ask.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { INVENTED_ASK_SENTENCE } from '#tests/support/fake-chat-answers.ts';
import { startFakeChatService, type FakeChatRequest, type FakeChatService } from '#tests/support/fake-openai-chat.ts';
import { startFakeEmbeddingsService, type FakeEmbeddingsService } from '#tests/support/fake-openai-embeddings.ts';
import type { SampleInput } from '../meetings/meetings.service.ts';

/**
 * Ask (issue 14) on SQLite and PostgreSQL, over real HTTP to the real server: who may be cited (a
 * stranger's meetings never, a team's shared meetings while one is a member), one-meeting scope,
 * the answer without a model (the best moments, grouped by meeting, labelled so) and with the notes'
 * LLM (a local fake chat server: sentences checked, invented ones dropped), embeddings fused from a
 * local fake /v1/embeddings server and their failures, and the streamed variant. Words no sample
 * meeting holds (zeppelin, quokka, marmoset) keep each account's samples out of the way.
 */
type Account = { token: string; userId: string; email: string };

const meeting = (title: string, lines: [speaker: string, startMs: number, text: string][]): SampleInput => {
  const speakers = [...new Set(lines.map(([speaker]) => speaker))];
  return {
    title,
    startedAt: '2026-03-10T09:00:00.000Z',
    durationSeconds: 600,
    participants: [],
    summary: '',
    transcript: {
      speakers: speakers.map((displayName, i) => ({ label: `Speaker ${i + 1}`, displayName })),
      segments: lines.map(([speaker, startMs, text]) => ({ speaker: speakers.indexOf(speaker), startMs, endMs: startMs + 4000, text })),
    },
  };
};

async function ask(t: TestApp, account: Account, body: Record<string, unknown>): Promise<{ status: number; answer: AskResponse | undefined; raw: unknown }> {
  const response = await t.app.inject({ method: 'POST', url: '/api/v1/ask', headers: { authorization: `Bearer ${account.token}` }, payload: body });
  const raw = response.json() as unknown;
  return { status: response.statusCode, answer: response.statusCode === 200 ? AskResponseSchema.parse(raw) : undefined, raw };
}

async function askOk(t: TestApp, account: Account, body: Record<string, unknown>): Promise<AskResponse> {
  const { status, answer, raw } = await ask(t, account, body);
  expect(status, JSON.stringify(raw)).toBe(200);
  return answer!;
}

type Fixture = { ids: Record<string, string>; segments: Record<string, string[]> };

/** Alice's meetings (one later shared with a team), Bob's (a stranger to her) and a team Carol joins. */
async function seed(t: TestApp) {
  const alice = await signUpUser(t.app, 'ask-alice');
  const bob = await signUpUser(t.app, 'ask-bob');
  const carol = await signUpUser(t.app, 'ask-carol');
  const fixture: Fixture = { ids: {}, segments: {} };
  const create = async (owner: Account, input: SampleInput) => {
    const created = await t.deps.services.meetings.createSample(owner.userId, input);
    fixture.ids[input.title] = created.id;
    fixture.segments[input.title] = created.segmentIds;
    await t.deps.services.ask.transcriptReady(created.id);
  };
  await create(
    alice,
    meeting('Zeppelin launch review', [
      ['Priya', 1000, 'Good morning everyone, thanks for joining.'],
      ['Tomás', 65_000, 'The zeppelin launch slipped by a week because the hangar permit is late.'],
      ['Priya', 130_000, 'Then we tell the press the new zeppelin launch date on Friday.'],
      ['Tomás', 190_000, 'The budget for the marketing campaign is twelve thousand euros.'],
    ]),
  );
  await create(
    alice,
    meeting('Quokka offsite planning', [
      ['Priya', 3000, 'Where do we hold the quokka offsite this year?'],
      ['Ana', 40_000, 'The zeppelin ride at the offsite was fun last year.'],
    ]),
  );
  await create(
    bob,
    meeting('Bob secret zeppelin plans', [
      ['Bob', 2000, 'Our own zeppelin launch happens in secret next month.'],
      ['Bob', 9000, 'Nobody outside this room may hear about the zeppelin hangar.'],
    ]),
  );
  await create(alice, meeting('Marmoset shared sync', [['Priya', 5000, 'The marmoset enclosure zeppelin tour is booked for the team.']]));
  const team = await t.deps.services.teams.create(alice.userId, 'Ask team');
  const invitation = await t.deps.services.teams.invite(alice.userId, team.id, { email: carol.email, role: 'member' });
  await t.deps.services.teams.accept(carol.userId, invitation.token);
  expect(await t.deps.services.meetings.shareWithTeam(alice.userId, fixture.ids['Marmoset shared sync']!, team.id)).toBe('shared');
  await t.deps.jobs.idle();
  return { alice, bob, carol, team, fixture };
}

const citedMeetings = (answer: AskResponse) => new Set(answer.citations.map((c) => c.meetingId));

describe('Ask without a model (the best moments)', () => {
  let t: TestApp;
  let s: Awaited<ReturnType<typeof seed>>;
  beforeAll(async () => {
    t = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' } });
    s = await seed(t);
  });
  afterAll(() => t.close());

  it('answers with the most relevant moments, grouped by meeting, honestly labelled, each with its meeting, speaker and time', async () => {
    const answer = await askOk(t, s.alice, { question: 'When is the zeppelin launch?' });
    expect(answer.mode).toBe('passages');
    expect(answer.notice).toBe(NO_MODEL_NOTICE);
    expect(answer.answer).toBe(NO_MODEL_NOTICE);
    const first = answer.citations[0]!;
    // Two lines say "zeppelin launch": Tomás's at 1:05 and Priya's at 2:10.
    const said = {
      [s.fixture.segments['Zeppelin launch review']![1]!]: ['Tomás', 65_000],
      [s.fixture.segments['Zeppelin launch review']![2]!]: ['Priya', 130_000],
    };
    expect(first).toMatchObject({ meetingId: s.fixture.ids['Zeppelin launch review'], meetingTitle: 'Zeppelin launch review' });
    expect([first.speaker, first.startMs]).toEqual(said[first.segmentId]);
    expect(first.text).toMatch(/zeppelin launch/);
    // Grouped: once another meeting's moments start, the first meeting's do not come back.
    const order = answer.citations.map((c) => c.meetingId).filter((id, i, all) => all[i - 1] !== id);
    expect(new Set(order).size).toBe(order.length);
    expect(answer.citations.length).toBeLessThanOrEqual(5);
  });

  it("never cites a stranger's meeting, and a stranger's meeting id is a 404", async () => {
    const answer = await askOk(t, s.alice, { question: 'zeppelin launch hangar' });
    expect(citedMeetings(answer).has(s.fixture.ids['Bob secret zeppelin plans']!)).toBe(false);
    expect(answer.citations.length).toBeGreaterThan(0);
    const bobs = await askOk(t, s.bob, { question: 'zeppelin launch hangar' });
    expect([...citedMeetings(bobs)]).toEqual([s.fixture.ids['Bob secret zeppelin plans']]);
    expect((await ask(t, s.alice, { question: 'zeppelin', meetingId: s.fixture.ids['Bob secret zeppelin plans'] })).status).toBe(404);
    expect((await ask(t, s.alice, { question: 'zeppelin', meetingId: crypto.randomUUID() })).status).toBe(404);
  });

  it('asks one meeting only when given its id', async () => {
    const id = s.fixture.ids['Quokka offsite planning']!;
    const answer = await askOk(t, s.alice, { question: 'zeppelin launch', meetingId: id });
    expect([...citedMeetings(answer)]).toEqual([id]);
    expect(answer.citations[0]!.text).toMatch(/zeppelin ride/);
  });

  it("includes meetings shared with the caller's teams, and no longer once the member is removed", async () => {
    const shared = s.fixture.ids['Marmoset shared sync']!;
    const carols = await askOk(t, s.carol, { question: 'marmoset zeppelin tour' });
    expect(citedMeetings(carols).has(shared)).toBe(true);
    // Alice's private meetings mention zeppelins too, and are never Carol's.
    expect([...citedMeetings(carols)].every((id) => id === shared)).toBe(true);
    expect((await ask(t, s.carol, { question: 'tour', meetingId: shared })).status).toBe(200);
    await t.deps.services.teams.removeMember(s.alice.userId, s.team.id, s.carol.userId);
    const after = await askOk(t, s.carol, { question: 'marmoset zeppelin tour' });
    expect(citedMeetings(after).has(shared)).toBe(false);
    expect((await ask(t, s.carol, { question: 'tour', meetingId: shared })).status).toBe(404);
  });

  it('says so when nothing matches, and refuses an empty or overlong question', async () => {
    const answer = await askOk(t, s.alice, { question: 'xylophone aardvark' });
    expect(answer).toMatchObject({ mode: 'passages', citations: [], notice: NOTHING_FOUND_NOTICE });
    expect((await ask(t, s.alice, { question: '   ' })).status).toBe(400);
    expect((await ask(t, s.alice, { question: 'why '.repeat(200) })).status).toBe(400);
    expect((await ask(t, s.alice, { question: 'zeppelin', meetingId: 'not-an-id' })).status).toBe(400);
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/v1/ask', payload: { question: 'zeppelin' } });
    expect(anonymous.statusCode).toBe(401);
  });

  it('streams: token events, then the whole answer with its citations', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/ask/stream',
      headers: { authorization: `Bearer ${s.alice.token}`, accept: 'text/event-stream' },
      payload: { question: 'When is the zeppelin launch?' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
    const events = response.body
      .trim()
      .split('\n\n')
      .map((block) => ({ name: /^event: (.*)$/m.exec(block)?.[1], data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null') as unknown }));
    expect(events.at(-1)!.name).toBe('done');
    expect(events.slice(0, -1).every((e) => e.name === 'token')).toBe(true);
    expect(
      events
        .slice(0, -1)
        .map((e) => (e.data as { text: string }).text)
        .join(''),
    ).toBe(NO_MODEL_NOTICE);
    const done = AskResponseSchema.parse(events.at(-1)!.data);
    expect(done.citations[0]!.meetingId).toBe(s.fixture.ids['Zeppelin launch review']);
    const stranger = await t.app.inject({
      method: 'POST',
      url: '/api/v1/ask/stream',
      headers: { authorization: `Bearer ${s.alice.token}` },
      payload: { question: 'zeppelin', meetingId: s.fixture.ids['Bob secret zeppelin plans'] },
    });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it('is described in the OpenAPI document, both variants', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as {
      paths: Record<string, Record<string, { tags?: string[] }>>;
    };
    expect(document.paths['/api/v1/ask']?.post?.tags).toEqual(['ask']);
    expect(document.paths['/api/v1/ask/stream']?.post?.tags).toEqual(['ask']);
  });

  it('does not find by meaning without embeddings: "money" is not a word of the budget line', async () => {
    const answer = await askOk(t, s.alice, { question: 'How much money is there?' });
    expect(answer.citations.some((c) => c.text.includes('budget'))).toBe(false);
  });

  it("finds a line by the words of the notes' item that cites it, for those who may read the meeting only", async () => {
    const id = s.fixture.ids['Zeppelin launch review']!;
    const permitLine = s.fixture.segments['Zeppelin launch review']![1]!;
    expect((await askOk(t, s.alice, { question: 'What about the aardwolf paperwork?' })).notice).toBe(NOTHING_FOUND_NOTICE);
    const source = await t.deps.services.meetings.notesSource(id);
    await t.deps.services.notes.storeSampleNotes(
      id,
      [{ kind: 'key_point', text: 'Aardwolf paperwork delays the launch', segmentIds: [permitLine], startMs: 65_000, suggested: false }],
      source!.transcriptRevision,
    );
    const answer = await askOk(t, s.alice, { question: 'What about the aardwolf paperwork?' });
    expect(answer.citations[0]).toMatchObject({ meetingId: id, segmentId: permitLine });
    expect((await askOk(t, s.bob, { question: 'What about the aardwolf paperwork?' })).notice).toBe(NOTHING_FOUND_NOTICE);
  });

  it('asks more of a moment searched among many meetings than of one meeting: one word of four is chance there', async () => {
    // Only "hangar" of caterers, hangar, wine and list is said, in the launch review's permit line.
    const question = 'What did the caterers say about the hangar and the wine list?';
    expect(await askOk(t, s.alice, { question })).toMatchObject({ citations: [], notice: NOTHING_FOUND_NOTICE });
    const id = s.fixture.ids['Zeppelin launch review']!;
    const ofOne = await askOk(t, s.alice, { question, meetingId: id });
    expect(ofOne.citations.map((c) => c.segmentId)).toEqual([s.fixture.segments['Zeppelin launch review']![1]]);
  });

  it('says nothing matches rather than cite moments that share only a common word with the question', async () => {
    const noise = await askOk(t, s.alice, { question: 'What did the caterers say about the zeppelin menu, wine list and seating plan?' });
    expect(noise).toMatchObject({ citations: [], notice: NOTHING_FOUND_NOTICE });
  });

  it('answers who does what, and what was decided, from the tracker and the register, each citing its moment', async () => {
    const created = await t.deps.services.meetings.createSample(
      s.alice.userId,
      meeting('Gala prep', [
        ['Dana Ortiz', 2000, 'I will book the venue for the gala by Friday.'],
        ['Eli', 9000, 'We go with the boathouse, agreed.'],
      ]),
    );
    const [venueLine, boathouseLine] = created.segmentIds;
    const source = await t.deps.services.meetings.notesSource(created.id);
    await t.deps.services.notes.storeSampleNotes(
      created.id,
      [
        {
          kind: 'action_item',
          text: 'Book the venue for the gala',
          segmentIds: [venueLine!],
          startMs: 2000,
          assignee: 'Dana Ortiz',
          due: '2026-03-13',
          suggested: false,
        },
        { kind: 'decision', text: 'The gala is at the boathouse', segmentIds: [boathouseLine!], startMs: 9000, suggested: false },
      ],
      source!.transcriptRevision,
    );
    const who = await askOk(t, s.alice, { question: 'Who is booking the gala venue?' });
    expect(who.answer).toBe('Dana Ortiz: Book the venue for the gala, due 2026-03-13.');
    expect(who.sentences).toEqual([{ text: who.answer, citations: [expect.any(Number)] }]);
    expect(who.citations[who.sentences[0]!.citations[0]!]).toMatchObject({ meetingId: created.id, segmentId: venueLine, speaker: 'Dana Ortiz' });
    const decided = await askOk(t, s.alice, { question: 'What did we decide about the gala?' });
    expect(decided.sentences.map((x) => x.text)).toEqual(['Decided: The gala is at the boathouse.']);
    expect(decided.citations[decided.sentences[0]!.citations[0]!]!.segmentId).toBe(boathouseLine);
    // A stranger never hears of them.
    expect((await askOk(t, s.bob, { question: 'Who is booking the gala venue?' })).sentences).toEqual([]);
  });

  it('finds an edited line by its new words, and no longer by its old ones', async () => {
    const id = s.fixture.ids['Quokka offsite planning']!;
    const segmentId = s.fixture.segments['Quokka offsite planning']![0]!;
    expect((await askOk(t, s.alice, { question: 'Where is the quokka offsite?' })).citations.map((c) => c.segmentId)).toContain(segmentId);
    const edit = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/meetings/${id}/segments/${segmentId}`,
      headers: { authorization: `Bearer ${s.alice.token}` },
      payload: { text: 'Where do we hold the wombat retreat this year?' },
    });
    expect(edit.statusCode).toBe(200);
    const renamed = await askOk(t, s.alice, { question: 'Where is the wombat retreat?' });
    expect(renamed.citations.map((c) => c.segmentId)).toEqual([segmentId]);
    const old = await askOk(t, s.alice, { question: 'Where is the quokka offsite?' });
    expect(old.citations.some((c) => c.text.includes('quokka'))).toBe(false);
  });
});

describe('Ask with the notes LLM and embeddings', () => {
  let t: TestApp;
  let chat: FakeChatService;
  let embeddings: FakeEmbeddingsService;
  let s: Awaited<ReturnType<typeof seed>>;
  beforeAll(async () => {
    chat = await startFakeChatService();
    embeddings = await startFakeEmbeddingsService({ apiKey: 'embed-key' });
    t = await buildTestApp({
      // Over real HTTP too: a person hanging up is a closed connection.
      listen: true,
      env: {
        AUTH_AUTOCONFIRM: 'true',
        AUTH_RATE_LIMITS: 'false',
        NOTES_LLM_URL: chat.url,
        NOTES_LLM_MODEL: 'fake-notes-model',
        ASK_EMBEDDINGS_URL: embeddings.url,
        ASK_EMBEDDINGS_KEY: 'embed-key',
        ASK_EMBEDDINGS_MODEL: 'fake-embed',
        // Long enough for an answer on a machine busy with the whole suite; the stall case waits it out.
        ASK_EMBEDDINGS_TIMEOUT_SECONDS: '5',
      },
    });
    s = await seed(t);
  });
  afterAll(async () => {
    await t.close();
    await chat.close();
    await embeddings.close();
  });

  it('answers in checked sentences, each citing the moments that say it; an invented sentence is dropped', async () => {
    const answer = await askOk(t, s.alice, { question: 'Why did the zeppelin launch slip?' });
    expect(answer.mode).toBe('llm');
    expect(answer.notice).toBeNull();
    expect(answer.sentences.length).toBeGreaterThan(0);
    for (const sentence of answer.sentences) {
      expect(sentence.citations.length).toBeGreaterThan(0);
      for (const i of sentence.citations) expect(answer.citations[i]).toBeDefined();
    }
    expect(answer.answer).toMatch(/hangar permit is late/);
    const cited = answer.citations.find((c) => c.text.includes('hangar permit'))!;
    expect(cited).toMatchObject({
      meetingId: s.fixture.ids['Zeppelin launch review'],
      speaker: 'Tomás',
      startMs: 65_000,
      segmentId: s.fixture.segments['Zeppelin launch review']![1],
    });
    const asked = chat.requests.at(-1)!;
    expect(asked.messages[1]!.content).toContain('Why did the zeppelin launch slip?');
    expect(asked.messages[1]!.content).not.toContain('secret');

    chat.behave('invent', 1);
    const invented = await askOk(t, s.alice, { question: 'Why did the zeppelin launch slip?' });
    expect(invented.mode).toBe('llm');
    expect(invented.answer).not.toContain(INVENTED_ASK_SENTENCE);
    expect(invented.answer).toMatch(/hangar permit is late/);
  });

  it("streams the model's checked sentences as they are written; a sentence that fails its check is never sent", async () => {
    chat.behave('invent', 1);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/ask/stream',
      headers: { authorization: `Bearer ${s.alice.token}` },
      payload: { question: 'Why did the zeppelin launch slip?' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain(INVENTED_ASK_SENTENCE);
    const events = response.body
      .trim()
      .split('\n\n')
      .map((block) => ({ name: /^event: (.*)$/m.exec(block)?.[1], data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null') as unknown }));
    const tokens = events.filter((e) => e.name === 'token').map((e) => (e.data as { text: string }).text);
    const done = AskResponseSchema.parse(events.at(-1)!.data);
    expect(done.mode).toBe('llm');
    expect(tokens.join('')).toBe(done.answer);
    expect(tokens.length).toBe(done.sentences.length);
    // The model was asked to stream (its answer checked line by line as it came).
    expect(chat.requests.at(-1)!.stream).toBe(true);
  });

  it('stops asking the model once the person goes away, for the JSON answer as for the streamed one', async () => {
    chat.reset();
    chat.behave('stall');
    try {
      for (const path of ['/api/v1/ask', '/api/v1/ask/stream']) {
        const [asked, hungUp] = [chat.requests.length, chat.hungUp()];
        const leaving = new AbortController();
        const response = fetch(`${t.baseUrl}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${s.alice.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ question: 'Why did the zeppelin launch slip?' }),
          signal: leaving.signal,
        });
        await expect.poll(() => chat.requests.length).toBeGreaterThan(asked);
        leaving.abort();
        await expect(response).rejects.toThrow();
        // Not after the model's own time limit (two minutes): at once.
        await expect.poll(() => chat.hungUp(), { timeout: 5_000 }).toBe(hungUp + 1);
      }
    } finally {
      chat.behave('ok');
    }
  });

  it('falls back to the moments, saying why, when the model fails', async () => {
    chat.behave('server-error', 2);
    const answer = await askOk(t, s.alice, { question: 'Why did the zeppelin launch slip?' });
    expect(answer).toMatchObject({ mode: 'passages', notice: MODEL_FAILED_NOTICE });
    expect(answer.citations[0]!.text).toMatch(/zeppelin/);
  });

  it('fuses embeddings with the index: a question in other words finds the moment', async () => {
    embeddings.reset();
    chat.reset();
    await askOk(t, s.alice, { question: 'How much money is there?' });
    expect(chat.requests).toHaveLength(1);
    // The moment the index alone cannot find (the test without embeddings above) is among those the model read.
    expect(chat.requests.at(-1)!.messages[1]!.content).toContain('The budget for the marketing campaign is twelve thousand euros.');
    // The question went to the embeddings server with the key; the segments were embedded before (the job).
    expect(embeddings.requests.map((r) => r.inputs)).toContainEqual(['How much money is there?']);
    expect(embeddings.requests.every((r) => r.authorization === 'Bearer embed-key')).toBe(true);
  });

  it("never finds a stranger's moments through embeddings either", async () => {
    const answer = await askOk(t, s.alice, { question: 'secret plans next month nobody outside this room' });
    expect(citedMeetings(answer).has(s.fixture.ids['Bob secret zeppelin plans']!)).toBe(false);
  });

  it.each(['server-error', 'malformed', 'wrong-count', 'stall'] as const)(
    'answers from the index alone when the embeddings server goes %s',
    async (behaviour) => {
      embeddings.behave(behaviour, 1);
      const answer = await askOk(t, s.alice, { question: 'Why did the zeppelin launch slip?' });
      expect(answer.mode).toBe('llm');
      expect(answer.answer).toMatch(/hangar permit is late/);
    },
  );

  it('embeds an edited line again, and only that one, once the edit is saved', async () => {
    const id = s.fixture.ids['Quokka offsite planning']!;
    const segmentId = s.fixture.segments['Quokka offsite planning']![0]!;
    embeddings.reset();
    const edit = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/meetings/${id}/segments/${segmentId}`,
      headers: { authorization: `Bearer ${s.alice.token}` },
      payload: { text: 'Where do we spend the quokka offsite money?' },
    });
    expect(edit.statusCode).toBe(200);
    await t.deps.jobs.idle();
    expect(embeddings.requests.flatMap((r) => r.inputs)).toEqual(['Priya: Where do we spend the quokka offsite money?']);
  });
});

describe("Ask with the model's rewrite and re-rank (ASK_LLM_REWRITE, ASK_LLM_RERANK)", () => {
  let t: TestApp;
  let chat: FakeChatService;
  let s: Awaited<ReturnType<typeof seed>>;
  beforeAll(async () => {
    chat = await startFakeChatService();
    t = await buildTestApp({
      env: {
        AUTH_AUTOCONFIRM: 'true',
        AUTH_RATE_LIMITS: 'false',
        NOTES_LLM_URL: chat.url,
        NOTES_LLM_MODEL: 'fake-notes-model',
        ASK_LLM_REWRITE: 'true',
        ASK_LLM_RERANK: 'true',
      },
    });
    s = await seed(t);
  });
  afterAll(async () => {
    await t.close();
    await chat.close();
  });
  const systemOf = (r: FakeChatRequest) => r.messages.find((m) => m.role === 'system')?.content ?? '';

  it('asks the model for search words, then to rank the passages, then for the answer', async () => {
    chat.reset();
    const answer = await askOk(t, s.alice, { question: 'Why did the zeppelin launch slip?' });
    expect(answer.mode).toBe('llm');
    expect(chat.requests.map((r) => systemOf(r).split('\n')[0])).toEqual([
      'You rewrite a question about meetings as search words for their transcripts.',
      'You rank passages of meeting transcripts by how well they answer a question.',
      'You answer questions about meetings, using only the transcript lines given.',
    ]);
    const rank = chat.requests[1]!.messages.at(-1)!.content;
    expect(rank).toContain('Question: Why did the zeppelin launch slip?');
    expect(rank).toMatch(/\[P1\] \(Zeppelin launch review\)\n/);
    expect(rank).not.toContain('Bob secret zeppelin plans');
    expect(answer.citations.every((c) => c.meetingId !== s.fixture.ids['Bob secret zeppelin plans'])).toBe(true);
  });

  it('answers as without them when the model fails on both', async () => {
    chat.reset();
    // Each call is tried twice: the rewrite's and the re-rank's both fail, the answer's does not.
    chat.behave('server-error', 4);
    const answer = await askOk(t, s.alice, { question: 'Why did the zeppelin launch slip?' });
    expect(answer.mode).toBe('llm');
    expect(answer.citations[0]!.meetingId).toBe(s.fixture.ids['Zeppelin launch review']);
  });
});

describe('Ask rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false', ASK_QUESTIONS_PER_MINUTE: '2' } });
  });
  afterAll(() => t.close());

  it('answers 429 past the questions a person may ask a minute, and only to that person', async () => {
    const [dana, eli] = [await signUpUser(t.app, 'ask-dana'), await signUpUser(t.app, 'ask-eli')];
    expect((await ask(t, dana, { question: 'standup' })).status).toBe(200);
    expect((await ask(t, dana, { question: 'standup' })).status).toBe(200);
    const third = await ask(t, dana, { question: 'standup' });
    expect(third.status).toBe(429);
    expect(third.raw).toMatchObject({
      error: { code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many questions; try again in \d+ s\.$/) as unknown },
    });
    expect((await ask(t, eli, { question: 'standup' })).status).toBe(200);
  });
});
