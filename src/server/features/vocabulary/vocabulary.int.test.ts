import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MeetingDetailSchema, type MeetingDetail } from '#shared/contracts/meetings.ts';
import { MAX_TERM_LENGTH, MAX_VOCABULARY_TERMS, VocabularyOverviewSchema } from '#shared/contracts/vocabulary.ts';
import type { TranscribeOptions, TranscriptionEngine } from '#server/features/transcription/engines/engine.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { startFakeChatService, type FakeChatService } from '#tests/support/fake-openai-chat.ts';
import { createFakeSpeakerIdentifier } from '#tests/support/fake-speech.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';

// Custom vocabulary end to end on the real server: Settings › Recording's terms and a team's, the
// plan's limit, and what transcription and the notes are given (a recording engine and a local
// fake of an OpenAI-compatible LLM), the near-misses corrected with the original kept and undone.

const SELF_HOSTED = 'This installation is self-hosted: every feature is included, custom vocabulary too.';
const CLIP = path.join(sharedAudioDir(), 'goforward.wav');

/** A speech engine that answers one fixed line and keeps the options of each call (the vocabulary given). */
function recordingEngine(line: string) {
  const calls: TranscribeOptions[] = [];
  const engine: TranscriptionEngine = {
    name: 'recording',
    checkAvailability: async () => ({ available: true }),
    transcribe: async (_pcm, options = {}) => {
      calls.push(options);
      return [{ startMs: 0, endMs: 2000, text: line, confidence: 0.9, words: [] }];
    },
  };
  return { engine, calls };
}

let t: TestApp;
let llm: FakeChatService;
const speech = recordingEngine('hello anica okay for we moved the parlay notes');
beforeAll(async () => {
  llm = await startFakeChatService({ apiKey: 'sk-notes' });
  t = await buildTestApp({
    env: {
      AUTH_AUTOCONFIRM: 'true',
      AUTH_RATE_LIMITS: 'false',
      NOTES_ENGINE: 'llm',
      NOTES_LLM_URL: llm.url,
      NOTES_LLM_KEY: 'sk-notes',
      NOTES_LLM_MODEL: 'fake-notes-model',
    },
    deps: { speech: { engine: speech.engine, speakers: createFakeSpeakerIdentifier() } },
  });
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

type Caller = { token: string; userId: string; email?: string };
const call = async (who: Caller | undefined, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) => {
  const response = await t.app.inject({ method, url, headers: who ? { authorization: `Bearer ${who.token}` } : {}, ...(payload ? { payload } : {}) });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of several shapes, each asserted field by field
  return { status: response.statusCode, body: response.json() as Record<string, any> };
};
const overview = async (who: Caller) => VocabularyOverviewSchema.parse((await call(who, 'GET', '/api/v1/vocabulary')).body);

/** A recorded meeting (optionally shared with a team) whose real audio is transcribed by the recording engine. */
async function transcribed(who: Caller, teamId?: string, source: 'upload' | 'mic' = 'upload'): Promise<MeetingDetail> {
  const created = await call(who, 'POST', '/api/v1/meetings', { title: 'Vocabulary check', source, ...(teamId ? { teamId } : {}) });
  const id = created.body.id as string;
  const key = t.deps.blobs.newKey('wav');
  const bytes = await t.deps.blobs.put(key, fs.readFileSync(CLIP), { ownerId: who.userId, kind: 'recording' });
  await t.deps.services.meetings.recordingStored(id, { key, mime: 'audio/wav', bytes, durationSeconds: 3 });
  await t.app.transcription.idle();
  return MeetingDetailSchema.parse((await call(who, 'GET', `/api/v1/meetings/${id}`)).body);
}

describe('Settings › Recording: a person’s vocabulary', () => {
  it('is saved once per term, read back, and said to be included on a self-hosted installation', async () => {
    const person = await signUpUser(t.app, 'vocab');
    expect(await overview(person)).toEqual({ terms: [], teams: [], included: true, note: SELF_HOSTED });
    const saved = await call(person, 'PUT', '/api/v1/vocabulary', { terms: ['  Anika   Okafor ', 'Parley', 'parley', 'PostgreSQL'] });
    expect(saved.status).toBe(200);
    expect(saved.body.terms).toEqual(['Anika Okafor', 'Parley', 'PostgreSQL']);
    expect((await overview(person)).terms).toEqual(['Anika Okafor', 'Parley', 'PostgreSQL']);
    // Delete All Data takes them with the person's settings.
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/me/data',
      headers: { authorization: `Bearer ${person.token}` },
      payload: { email: person.email },
    });
    expect(deleted.statusCode).toBe(200);
    expect((await overview(person)).terms).toEqual([]);
  });

  it('refuses a term too long, of other characters, of too many words, or too many terms; and anyone signed out', async () => {
    const person = await signUpUser(t.app, 'vocab');
    for (const terms of [
      ['x'.repeat(MAX_TERM_LENGTH + 1)],
      ['<script>'],
      ['one two three four five'],
      ['   '],
      Array.from({ length: MAX_VOCABULARY_TERMS + 1 }, (_, i) => `Term ${i}`),
    ])
      expect((await call(person, 'PUT', '/api/v1/vocabulary', { terms })).status).toBe(400);
    expect((await call(person, 'PUT', '/api/v1/vocabulary', { terms: ['Parley'], extra: 1 })).status).toBe(400);
    expect((await call(undefined, 'GET', '/api/v1/vocabulary')).status).toBe(401);
    expect((await overview(person)).terms).toEqual([]);
  });
});

describe('the plan’s limit on custom vocabulary', () => {
  it('refuses saving terms on Free with the way up, allows emptying the list, and allows Pro', async () => {
    const person = await signUpUser(t.app, 'vocab');
    await call(person, 'PUT', '/api/v1/vocabulary', { terms: ['Parley'] });
    await t.deps.services.billing.assign(person.userId, 'free');
    const message =
      'Custom vocabulary is not included in your Free plan. Ask the administrator of this installation to move your account to the Pro plan for custom vocabulary.';
    expect(await call(person, 'PUT', '/api/v1/vocabulary', { terms: ['Okafor'] })).toEqual({
      status: 403,
      body: { error: { code: 'PLAN_LIMIT', message, details: { plan: 'free' } } },
    });
    expect(await overview(person)).toMatchObject({ terms: ['Parley'], included: false, note: message });
    // The kept terms wait: transcription is not given them while the plan leaves them out.
    const meeting = await transcribed(person);
    expect(speech.calls.at(-1)?.vocabulary).toEqual([]);
    expect(meeting.segments[0]!.corrections).toBeUndefined();
    expect((await call(person, 'PUT', '/api/v1/vocabulary', { terms: [] })).status).toBe(200);

    await t.deps.services.billing.assign(person.userId, 'pro');
    expect((await call(person, 'PUT', '/api/v1/vocabulary', { terms: ['Okafor'] })).body).toMatchObject({
      terms: ['Okafor'],
      included: true,
      note: 'Custom vocabulary is included in your Pro plan.',
    });
  });
});

describe('a team’s vocabulary', () => {
  it('is edited by its owner and admins only, seen by its members, and used for meetings shared with the team', async () => {
    const owner = await signUpUser(t.app, 'vocab-owner');
    const member = await signUpUser(t.app, 'vocab-member');
    const outsider = await signUpUser(t.app, 'vocab-outsider');
    const team = (await call(owner, 'POST', '/api/v1/teams', { name: 'Platform' })).body;
    const invitation = (await call(owner, 'POST', `/api/v1/teams/${team.id}/invitations`, { role: 'member' })).body;
    expect((await call(member, 'POST', `/api/v1/invitations/${invitation.token}/accept`)).status).toBe(200);

    const url = `/api/v1/teams/${team.id}/vocabulary`;
    expect((await call(owner, 'PUT', url, { terms: ['Kubernetes', 'Anika Okafor'] })).status).toBe(200);
    expect(await call(member, 'PUT', url, { terms: ['Mine'] })).toMatchObject({
      status: 403,
      body: { error: { code: 'FORBIDDEN', message: 'Only the team’s owner and admins can change its vocabulary.' } },
    });
    expect((await call(outsider, 'PUT', url, { terms: ['Theirs'] })).status).toBe(404);
    expect((await overview(member)).teams).toEqual([
      { teamId: team.id, teamName: 'Platform', role: 'member', terms: ['Kubernetes', 'Anika Okafor'], canEdit: false },
    ]);
    expect((await overview(owner)).teams[0]).toMatchObject({ role: 'owner', canEdit: true });

    // The member's own terms and the team's, for the member's meeting shared with the team; their own alone otherwise.
    await call(member, 'PUT', '/api/v1/vocabulary', { terms: ['Parley'] });
    await transcribed(member, team.id);
    expect(speech.calls.at(-1)?.vocabulary).toEqual(['Parley', 'Kubernetes', 'Anika Okafor']);
    await transcribed(member);
    expect(speech.calls.at(-1)?.vocabulary).toEqual(['Parley']);
  });
});

describe('transcription and notes with the vocabulary', () => {
  it('corrects near-misses with the original kept, gives the notes the terms, and undoes a correction as a transcript edit', { timeout: 60_000 }, async () => {
    const person = await signUpUser(t.app, 'vocab');
    await call(person, 'PUT', '/api/v1/vocabulary', { terms: ['Anika Okafor', 'Parley'] });
    const meeting = await transcribed(person);
    expect(speech.calls.at(-1)?.vocabulary).toEqual(['Anika Okafor', 'Parley']);
    const [line] = meeting.segments;
    expect(line!.text).toBe('Hello Anika Okafor we moved the Parley notes.');
    expect(line!.corrections).toEqual([
      { id: expect.any(String), position: 6, original: 'anica okay for', corrected: 'Anika Okafor' },
      { id: expect.any(String), position: 32, original: 'parlay', corrected: 'Parley' },
    ]);

    // The notes engine was told the terms (the notes job ran on transcript.ready).
    const prompt = llm.requests
      .at(-1)!
      .messages.map((m) => m.content)
      .join('\n');
    expect(prompt).toContain('Names and terms (spell them exactly like this): Anika Okafor, Parley');
    expect(prompt).toContain('Hello Anika Okafor we moved the Parley notes.');

    // Undone: what was heard is back, the other correction still in place; search finds the words heard.
    const undone = await call(person, 'POST', `/api/v1/meetings/${meeting.id}/corrections/${line!.corrections![0]!.id}/undo`);
    expect(undone.status).toBe(200);
    const after = MeetingDetailSchema.parse(undone.body).segments[0]!;
    expect(after.text).toBe('Hello anica okay for we moved the Parley notes.');
    expect(after.corrections).toEqual([{ id: line!.corrections![1]!.id, position: 34, original: 'parlay', corrected: 'Parley' }]);
    expect(MeetingDetailSchema.parse(undone.body).notes.outOfDate).toBe(true);
    const found = await call(person, 'GET', `/api/v1/meetings?q=${encodeURIComponent('anica')}`);
    expect(found.body.items.map((m: { id: string }) => m.id)).toEqual([meeting.id]);
    await t.app.transcription.idle();
    const events = await t.deps.database.db.selectFrom('domain_events').select(['type', 'payload']).where('subject_id', '=', meeting.id).execute();
    expect(events.map((e) => e.type)).toContain('transcript.edited');

    // Undone twice, or someone else's: not found.
    expect((await call(person, 'POST', `/api/v1/meetings/${meeting.id}/corrections/${line!.corrections![0]!.id}/undo`)).status).toBe(404);
    const other = await signUpUser(t.app, 'vocab');
    expect((await call(other, 'POST', `/api/v1/meetings/${meeting.id}/corrections/${line!.corrections![1]!.id}/undo`)).status).toBe(404);
  });
});

describe('the same corrections for every transcript', () => {
  it('an imported transcript: near-misses of the owner’s and the team’s terms corrected, what was written kept, Undo on the line', async () => {
    const person = await signUpUser(t.app, 'vocab');
    const team = (await call(person, 'POST', '/api/v1/teams', { name: 'Imports' })).body;
    await call(person, 'PUT', '/api/v1/vocabulary', { terms: ['Anika Okafor'] });
    await call(person, 'PUT', `/api/v1/teams/${team.id}/vocabulary`, { terms: ['Parley'] });
    const content =
      'WEBVTT\n\n00:00:00.000 --> 00:00:04.000\n<v Ben>hello anica okay for we moved the parlay notes\n\n00:00:04.000 --> 00:00:06.000\n<v Ada>Thanks, Ben.\n';
    const imported = await call(person, 'POST', '/api/v1/meetings/imports', { fileName: 'sync.vtt', content, teamId: team.id });
    expect(imported.status).toBe(201);
    const [line, second] = MeetingDetailSchema.parse(imported.body).segments;
    expect(line!.text).toBe('hello Anika Okafor we moved the Parley notes');
    expect(line!.corrections).toEqual([
      { id: expect.any(String), position: 6, original: 'anica okay for', corrected: 'Anika Okafor' },
      { id: expect.any(String), position: 32, original: 'parlay', corrected: 'Parley' },
    ]);
    expect(second).toMatchObject({ text: 'Thanks, Ben.' });
    expect(second!.corrections).toBeUndefined();

    const undone = await call(person, 'POST', `/api/v1/meetings/${imported.body.id}/corrections/${line!.corrections![1]!.id}/undo`);
    expect(undone.status).toBe(200);
    expect(MeetingDetailSchema.parse(undone.body).segments[0]).toMatchObject({
      text: 'hello Anika Okafor we moved the parlay notes',
      corrections: [{ original: 'anica okay for' }],
    });

    // Without terms, an import is stored as written.
    const plain = await signUpUser(t.app, 'vocab');
    const asWritten = await call(plain, 'POST', '/api/v1/meetings/imports', { fileName: 'sync.vtt', content });
    expect(MeetingDetailSchema.parse(asWritten.body).segments[0]).toMatchObject({ text: 'hello anica okay for we moved the parlay notes' });
    expect(MeetingDetailSchema.parse(asWritten.body).segments[0]!.corrections).toBeUndefined();
  });

  it('a live recording: the transcript saved from the microphone’s recording is corrected the same way', { timeout: 60_000 }, async () => {
    const person = await signUpUser(t.app, 'vocab');
    await call(person, 'PUT', '/api/v1/vocabulary', { terms: ['Anika Okafor', 'Parley'] });
    const meeting = await transcribed(person, undefined, 'mic');
    expect(meeting.source).toBe('mic');
    expect(meeting.segments[0]).toMatchObject({
      text: 'Hello Anika Okafor we moved the Parley notes.',
      corrections: [{ original: 'anica okay for' }, { original: 'parlay' }],
    });
  });
});
