import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MeetingDetailSchema, type MeetingDetail } from '#shared/contracts/meetings.ts';
import { NotesResponseSchema } from '#shared/contracts/notes.ts';
import type { RealtimeEvent } from '#shared/contracts/realtime.ts';
import { SharedMeetingSchema } from '#shared/contracts/sharing.ts';
import { StatusResponseSchema } from '#shared/contracts/status.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { INVENTED_SUMMARY_SENTENCES } from '#tests/support/fake-chat-answers.ts';
import { startFakeChatService, type FakeChatService } from '#tests/support/fake-openai-chat.ts';

// The notes stage end to end on the real server: a meeting's transcript is stored, the notes job
// writes its notes with the local engine (in its own process) or an LLM (a local fake of the
// protocol), and people read, edit, accept, tick, dismiss and regenerate them.

const ENV = { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' };
const BUDGET_MEETING = [
  { speaker: 0, text: 'Welcome everyone. Today we need to settle the budget for the spring campaign and who does what.' },
  { speaker: 1, text: 'The agency quoted forty thousand for the video work, which is more than we planned for.' },
  { speaker: 0, text: 'We agreed to cap the video budget at thirty thousand and ask the agency for a smaller package.' },
  { speaker: 1, text: 'I will send the revised budget to finance by Friday.' },
  { speaker: 2, text: 'The landing page copy is nearly done, and the designs went to review yesterday.' },
  { speaker: 0, text: 'Maria, can you book the photographer for next Tuesday?' },
  { speaker: 2, text: 'Sure, I will book the photographer today.' },
  { speaker: 0, text: "Let's go with the blue theme for the campaign visuals. That is decided." },
];

type Caller = { token: string; userId: string };

async function call(t: TestApp, who: Caller, method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: { authorization: `Bearer ${who.token}` }, ...(payload ? { payload } : {}) });
}

const meeting = async (t: TestApp, who: Caller, id: string): Promise<MeetingDetail> =>
  MeetingDetailSchema.parse((await call(t, who, 'GET', `/api/v1/meetings/${id}`)).json());

/** A meeting as a finished transcription leaves it (audio stored, transcript saved), its notes then handed off. */
async function transcribedMeeting(t: TestApp, who: Caller, options: object = {}): Promise<string> {
  const created = await call(t, who, 'POST', '/api/v1/meetings', { title: 'Spring campaign', options, startedAt: '2026-11-17T15:00:00.000Z' });
  const { id } = created.json() as { id: string };
  const { meetings } = t.deps.services;
  await meetings.recordingStored(id, { key: `test/${id}.webm`, mime: 'audio/webm', bytes: 1, durationSeconds: 80 });
  await meetings.completeTranscription(id, {
    speakers: [
      { label: 'Speaker 1', displayName: 'Dana Whitfield' },
      { label: 'Speaker 2', displayName: 'Omar Haddad' },
      { label: 'Speaker 3', displayName: 'Maria Lopez' },
    ],
    segments: BUDGET_MEETING.map((line, i) => ({ speaker: line.speaker, startMs: i * 10_000, endMs: i * 10_000 + 9_000, text: line.text })),
  });
  // Its transcript.ready event hands it to the notes (the domain events' delivery).
  return id;
}

describe('meeting notes with the local engine', () => {
  let t: TestApp;
  let owner: Caller;
  beforeAll(async () => {
    t = await buildTestApp({ env: ENV });
    owner = await signUpUser(t.app, 'notes');
  });
  afterAll(() => t.close());

  it(
    'writes notes after the transcript: a summary and items that each cite segments of this meeting and jump to their moment',
    { timeout: 60_000 },
    async () => {
      const events: RealtimeEvent[] = [];
      t.app.realtime.subscribe(owner.userId, (event) => events.push(event));
      const id = await transcribedMeeting(t, owner);
      expect((await meeting(t, owner, id)).status).toBe('ready'); // the transcript never waits for its notes
      await t.app.transcription.idle();
      const done = await meeting(t, owner, id);
      expect(done.notes).toMatchObject({ status: 'ready', engine: 'local', failureReason: null, droppedUncited: 0, outOfDate: false, progress: null });
      expect(done.summary?.split(/\s+/).length).toBeGreaterThan(10);
      const segmentIds = new Set(done.segments.map((s) => s.id));
      const starts = new Map(done.segments.map((s) => [s.id, s.startMs]));
      // The summary comes as its sentences too, each citing lines of this meeting and jumping to the first.
      const sentences = done.summarySentences ?? [];
      expect(sentences.length).toBeGreaterThan(1);
      expect(sentences.map((s) => s.text).join(' ')).toBe(done.summary);
      for (const sentence of sentences) {
        for (const segmentId of sentence.segmentIds) expect(segmentIds.has(segmentId)).toBe(true);
        expect(sentence.startMs).toBe(starts.get(sentence.segmentIds[0]!));
      }
      expect(done.insights.length).toBeGreaterThan(3);
      for (const item of done.insights) {
        expect(item.segmentIds.length).toBeGreaterThan(0);
        for (const segmentId of item.segmentIds) expect(segmentIds.has(segmentId)).toBe(true);
        expect(item.startMs).toBe(starts.get(item.segmentIds[0]!));
        expect(item.suggested).toBe(true); // the local engine suggests; a person accepts
      }
      const actions = done.insights.filter((i) => i.kind === 'action_item');
      expect(actions).toContainEqual(expect.objectContaining({ assignee: 'Omar Haddad', due: '2026-11-20', dueText: 'by Friday', status: 'open' }));
      expect(actions.map((a) => a.assignee)).toContain('Maria Lopez');
      expect(done.insights.some((i) => i.kind === 'decision')).toBe(true);
      expect(done.insights.filter((i) => i.kind === 'topic').every((topic) => topic.endMs !== null && topic.endMs >= topic.startMs)).toBe(true);
      // Live over /realtime: queued, then running part N of M, then ready.
      const states = events.filter((e) => e.type === 'meeting.notes' && e.meetingId === id).map((e) => (e.type === 'meeting.notes' ? e.notes : undefined));
      expect(states[0]?.status).toBe('queued');
      expect(states.some((s) => s?.status === 'running' && s.progress !== null)).toBe(true);
      expect(states.at(-1)?.status).toBe('ready');

      // A summary the person rewrote is theirs: its words no longer are the cited sentences.
      const edited = await call(t, owner, 'PATCH', `/api/v1/meetings/${id}`, { summary: 'Budget capped; photographer booked.' });
      expect(MeetingDetailSchema.parse(edited.json())).toMatchObject({ summary: 'Budget capped; photographer booked.', summarySentences: null });
      expect((await meeting(t, owner, id)).summarySentences).toBeNull();
      // Written again, the summary cites again (what the Regenerate answer and the meeting say).
      const regenerated = NotesResponseSchema.parse((await call(t, owner, 'POST', `/api/v1/meetings/${id}/notes`)).json());
      expect(regenerated.summarySentences).toBeNull(); // queued: the edited summary is still the one shown
      await t.app.transcription.idle();
      expect((await meeting(t, owner, id)).summarySentences).toEqual(sentences);
    },
  );

  it('lets the owner accept, edit, tick done and dismiss items; regenerating keeps what a person reviewed, without repeats', { timeout: 60_000 }, async () => {
    const id = await transcribedMeeting(t, owner);
    await t.app.transcription.idle();
    const before = await meeting(t, owner, id);
    const [first, second] = before.insights.filter((i) => i.kind === 'action_item');
    const keyPoint = before.insights.find((i) => i.kind === 'key_point')!;
    const patch = (itemId: string, body: object) => call(t, owner, 'PATCH', `/api/v1/meetings/${id}/notes/items/${itemId}`, body);
    expect((await patch(first!.id, { accepted: true })).statusCode).toBe(200);
    expect((await patch(second!.id, { status: 'done', text: 'Book the photographer for Tuesday' })).statusCode).toBe(200);
    const edited = NotesResponseSchema.parse((await patch(keyPoint.id, { status: 'dismissed' })).json());
    expect(edited.insights.find((i) => i.id === first!.id)).toMatchObject({ suggested: false, status: 'open' });
    expect(edited.insights.find((i) => i.id === second!.id)).toMatchObject({ suggested: false, status: 'done', text: 'Book the photographer for Tuesday' });
    expect(edited.insights.find((i) => i.id === keyPoint.id)?.status).toBe('dismissed');
    expect((await patch(first!.id, {})).statusCode).toBe(400);

    const regenerated = await call(t, owner, 'POST', `/api/v1/meetings/${id}/notes`);
    expect(regenerated.statusCode).toBe(202);
    await t.app.transcription.idle();
    const after = await meeting(t, owner, id);
    expect(after.notes.status).toBe('ready');
    expect(after.insights.find((i) => i.id === second!.id)).toMatchObject({ status: 'done', text: 'Book the photographer for Tuesday' });
    expect(after.insights.find((i) => i.id === first!.id)).toBeDefined();
    expect(after.insights.filter((i) => i.kind === 'action_item' && i.text === first!.text)).toHaveLength(1);
    expect(after.insights.filter((i) => i.kind === 'key_point' && i.text === keyPoint.text)).toHaveLength(1);
  });

  it('shows notes out of date after a transcript edit or a speaker rename, and current again once regenerated', { timeout: 60_000 }, async () => {
    const id = await transcribedMeeting(t, owner);
    await t.app.transcription.idle();
    const ready = await meeting(t, owner, id);
    expect(ready.notes.outOfDate).toBe(false);
    await call(t, owner, 'PATCH', `/api/v1/meetings/${id}/segments/${ready.segments[1]!.id}`, { text: 'The agency quoted fifty thousand for the video work.' });
    expect((await meeting(t, owner, id)).notes.outOfDate).toBe(true);
    await call(t, owner, 'POST', `/api/v1/meetings/${id}/notes`);
    await t.app.transcription.idle();
    expect((await meeting(t, owner, id)).notes.outOfDate).toBe(false);
    await call(t, owner, 'PATCH', `/api/v1/meetings/${id}/speakers/${ready.speakers[0]!.id}`, { displayName: 'Dana W.' });
    expect((await meeting(t, owner, id)).notes.outOfDate).toBe(true);
  });

  it("keeps action items' owners with the speakers as the person corrects who spoke, until the person picks an owner", { timeout: 60_000 }, async () => {
    const id = await transcribedMeeting(t, owner);
    await t.app.transcription.idle();
    const ready = await meeting(t, owner, id);
    const speaker = (name: string) => ready.speakers.find((s) => s.displayName === name)!.id;
    const ownerOf = async (itemId: string) => (await meeting(t, owner, id)).insights.find((i) => i.id === itemId)?.assignee;
    const actions = ready.insights.filter((i) => i.kind === 'action_item');
    // "I will send the revised budget to finance by Friday." (Omar's line) and Maria's photographer.
    const budget = actions.find((i) => i.assignee === 'Omar Haddad')!;
    const photographer = actions.find((i) => i.assignee === 'Maria Lopez')!;
    const budgetLine = ready.segments.find((s) => s.text.startsWith('I will send the revised budget'))!;

    // The line was Dana's, not Omar's: its item goes with it. Maria's name is corrected.
    await call(t, owner, 'POST', `/api/v1/meetings/${id}/segments/speaker`, { segmentIds: [budgetLine.id], speakerId: speaker('Dana Whitfield') });
    await call(t, owner, 'PATCH', `/api/v1/meetings/${id}/speakers/${speaker('Maria Lopez')}`, { displayName: 'María López' });
    await t.app.transcription.idle();
    expect(await ownerOf(budget.id)).toBe('Dana Whitfield');
    expect(await ownerOf(photographer.id)).toBe('María López');

    // Maria and Omar were one voice: merged, her items are his.
    await call(t, owner, 'POST', `/api/v1/meetings/${id}/speakers/${speaker('Maria Lopez')}/merge`, { intoSpeakerId: speaker('Omar Haddad') });
    await t.app.transcription.idle();
    expect(await ownerOf(photographer.id)).toBe('Omar Haddad');

    // An owner the person chose stays theirs; one they did not change still follows.
    await call(t, owner, 'PATCH', `/api/v1/meetings/${id}/notes/items/${budget.id}`, { assignee: 'Finance team' });
    await call(t, owner, 'PATCH', `/api/v1/meetings/${id}/notes/items/${photographer.id}`, { status: 'done' });
    await call(t, owner, 'PATCH', `/api/v1/meetings/${id}/speakers/${speaker('Dana Whitfield')}`, { displayName: 'Dana W.' });
    await call(t, owner, 'PATCH', `/api/v1/meetings/${id}/speakers/${speaker('Omar Haddad')}`, { displayName: 'Omar H.' });
    await t.app.transcription.idle();
    expect(await ownerOf(budget.id)).toBe('Finance team');
    expect(await ownerOf(photographer.id)).toBe('Omar H.');
  });

  it(
    'is off when the person turned Summary and Action Items off, or AI Summary Generation, and Regenerate writes them anyway',
    { timeout: 60_000 },
    async () => {
      const off = await transcribedMeeting(t, owner, { summary: false, actionItems: false });
      await t.app.transcription.idle();
      const offMeeting = await meeting(t, owner, off);
      expect(offMeeting.notes.status).toBe('off');
      expect(offMeeting.insights).toEqual([]);
      await call(t, owner, 'POST', `/api/v1/meetings/${off}/notes`);
      await t.app.transcription.idle();
      expect((await meeting(t, owner, off)).notes.status).toBe('ready');

      const onlyActions = await transcribedMeeting(t, owner, { summary: false });
      await t.app.transcription.idle();
      const kinds = new Set((await meeting(t, owner, onlyActions)).insights.map((i) => i.kind));
      expect([...kinds]).toEqual(['action_item']);

      const person = await signUpUser(t.app, 'notes-off');
      expect((await call(t, person, 'PUT', '/api/v1/settings/recording', { aiSummary: false })).statusCode).toBe(200);
      const unasked = await transcribedMeeting(t, person);
      await t.app.transcription.idle();
      expect((await meeting(t, person, unasked)).notes.status).toBe('off');
    },
  );

  it(
    'keeps notes to their owner: another person can neither regenerate nor change them, and a share link shows what was not dismissed',
    { timeout: 60_000 },
    async () => {
      const id = await transcribedMeeting(t, owner);
      await t.app.transcription.idle();
      const stranger = await signUpUser(t.app, 'notes-stranger');
      const item = (await meeting(t, owner, id)).insights[0]!;
      expect((await call(t, stranger, 'POST', `/api/v1/meetings/${id}/notes`)).statusCode).toBe(404);
      expect((await call(t, stranger, 'PATCH', `/api/v1/meetings/${id}/notes/items/${item.id}`, { status: 'done' })).statusCode).toBe(404);
      expect((await meeting(t, owner, id)).insights[0]!.status).toBe('open');
      await call(t, owner, 'PATCH', `/api/v1/meetings/${id}/notes/items/${item.id}`, { status: 'dismissed' });
      const share = (await call(t, owner, 'POST', `/api/v1/meetings/${id}/share`)).json() as { token: string };
      const shared = SharedMeetingSchema.parse((await t.app.inject({ method: 'GET', url: `/api/v1/shared/${share.token}` })).json());
      expect(shared.insights.map((i) => i.id)).not.toContain(item.id);
      expect(shared.insights.length).toBeGreaterThan(0);
      // The summary's sentences come with the lines they cite, as the owner sees them.
      const own = (await meeting(t, owner, id)).summarySentences;
      expect(own?.length).toBeGreaterThan(0);
      expect(shared.summarySentences).toEqual(own);
    },
  );
});

describe('meeting notes with an OpenAI-compatible LLM', () => {
  let t: TestApp;
  let owner: Caller;
  let llm: FakeChatService;
  beforeAll(async () => {
    llm = await startFakeChatService({ apiKey: 'sk-notes' });
    t = await buildTestApp({
      env: {
        ...ENV,
        NOTES_ENGINE: 'llm',
        NOTES_LLM_URL: llm.url,
        NOTES_LLM_KEY: 'sk-notes',
        NOTES_LLM_MODEL: 'fake-notes-model',
        NOTES_RETRY_DELAY_SECONDS: '1',
        NOTES_MAX_ATTEMPTS: '2',
        NOTES_LLM_TIMEOUT_SECONDS: '600',
      },
    });
    owner = await signUpUser(t.app, 'notes-llm');
  });
  afterAll(async () => {
    await t.close();
    await llm.close();
  });

  it(
    'writes the notes with the LLM, its summary as sentences that cite lines, drops the items and sentences whose citations do not check, and says so on /status',
    { timeout: 60_000 },
    async () => {
      llm.behave('invent', 1);
      const id = await transcribedMeeting(t, owner);
      await t.app.transcription.idle();
      const done = await meeting(t, owner, id);
      expect(done.notes).toMatchObject({ status: 'ready', engine: 'llm', failureReason: null });
      expect(done.notes.droppedUncited).toBeGreaterThan(0);
      const segmentIds = new Set(done.segments.map((s) => s.id));
      for (const item of done.insights) for (const segmentId of item.segmentIds) expect(segmentIds.has(segmentId)).toBe(true);
      expect(done.insights.every((i) => !i.suggested)).toBe(true);
      // The LLM's summary comes as sentences citing lines of this meeting, each jumping to the first;
      // the sentences whose citations did not hold (the invented ones) are left out of it.
      const starts = new Map(done.segments.map((s) => [s.id, s.startMs]));
      const sentences = done.summarySentences ?? [];
      expect(sentences.length).toBeGreaterThan(1);
      expect(sentences.map((s) => s.text).join(' ')).toBe(done.summary);
      for (const invented of INVENTED_SUMMARY_SENTENCES) expect(done.summary).not.toContain(invented);
      for (const sentence of sentences) {
        for (const segmentId of sentence.segmentIds) expect(segmentIds.has(segmentId)).toBe(true);
        expect(sentence.startMs).toBe(starts.get(sentence.segmentIds[0]!));
      }
      expect(llm.requests.some((r) => r.model === 'fake-notes-model' && r.authorization === 'Bearer sk-notes')).toBe(true);
      const status = StatusResponseSchema.parse((await call(t, owner, 'GET', '/api/v1/status')).json());
      expect(status.notes).toMatchObject({ setting: 'llm', inUse: 'llm' });
      expect(status.notes.engines.map((e) => e.name)).toEqual(['llm', 'local']);
    },
  );

  it('gives action items the names their speakers got while the notes were being written', { timeout: 60_000 }, async () => {
    llm.reset();
    const release = llm.hold();
    const id = await transcribedMeeting(t, owner);
    // The notes job read the transcript and waits for the model: now a speaker is named (as a voice
    // profile's match names one), and that edit reaches the notes before they are stored.
    await expect.poll(() => llm.requests.length, { timeout: 30_000, interval: 100 }).toBeGreaterThan(0);
    const omar = (await meeting(t, owner, id)).speakers.find((s) => s.displayName === 'Omar Haddad')!;
    expect((await call(t, owner, 'PATCH', `/api/v1/meetings/${id}/speakers/${omar.id}`, { displayName: 'Omar Ortiz' })).statusCode).toBe(200);
    const delivered = () =>
      t.database.db
        .selectFrom('event_deliveries')
        .innerJoin('domain_events', 'domain_events.seq', 'event_deliveries.event_seq')
        .select('event_deliveries.status')
        .where('domain_events.type', '=', 'transcript.edited')
        .where('domain_events.subject_id', '=', id)
        .where('event_deliveries.subscriber', '=', 'notes')
        .execute();
    await expect.poll(delivered, { timeout: 30_000, interval: 100 }).toEqual([{ status: 'done' }]);
    release();
    await expect.poll(async () => (await meeting(t, owner, id)).notes.status, { timeout: 30_000, interval: 200 }).toBe('ready');
    const budget = (await meeting(t, owner, id)).insights.find((i) => i.kind === 'action_item' && i.text.includes('revised budget'));
    expect(budget?.assignee).toBe('Omar Ortiz');
  });

  it('stops writing the notes of a meeting deleted meanwhile, and frees the notes lane for the next meeting', { timeout: 90_000 }, async () => {
    llm.reset();
    llm.behave('stall', 1); // the model never answers the first chat request
    const content = BUDGET_MEETING.map((line) => `${['Dana', 'Omar', 'Maria'][line.speaker]}: ${line.text}`).join('\n');
    const imported = await call(t, owner, 'POST', '/api/v1/meetings/imports', { fileName: 'budget.txt', content });
    expect(imported.statusCode, imported.body).toBe(201);
    const { id } = imported.json() as { id: string };
    await expect.poll(() => llm.requests.length, { timeout: 30_000, interval: 100 }).toBeGreaterThan(0);
    expect((await t.deps.services.notes.jobOf(id))?.state).toBe('running');
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/v1/meetings/${id}`, headers: { authorization: `Bearer ${owner.token}` } });
    expect(removed.statusCode, removed.body).toBe(200);
    // The run ends well before the model's time limit (NOTES_LLM_TIMEOUT_SECONDS, 600 here), its request given up.
    await expect.poll(async () => (await t.deps.services.notes.jobOf(id))?.state, { timeout: 30_000, interval: 200 }).toBe('succeeded');
    await expect.poll(() => llm.hungUp(), { timeout: 10_000, interval: 100 }).toBeGreaterThan(0);
    const next = await transcribedMeeting(t, owner);
    await expect.poll(async () => (await meeting(t, owner, next)).notes.status, { timeout: 30_000, interval: 200 }).toBe('ready');
  });

  it(
    'fails the notes with the service’s reason when it refuses, keeps the transcript ready, and Regenerate succeeds once it is back',
    { timeout: 60_000 },
    async () => {
      llm.configure({ models: ['another-model'] });
      const id = await transcribedMeeting(t, owner);
      await t.app.transcription.idle();
      const failed = await meeting(t, owner, id);
      expect(failed.status).toBe('ready');
      expect(failed.segments.length).toBe(BUDGET_MEETING.length);
      expect(failed.notes.status).toBe('failed');
      expect(failed.notes.failureReason).toMatch(/fake-notes-model/);
      llm.reset();
      await call(t, owner, 'POST', `/api/v1/meetings/${id}/notes`);
      await t.app.transcription.idle();
      expect((await meeting(t, owner, id)).notes.status).toBe('ready');
    },
  );
});
