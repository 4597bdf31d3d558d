import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { MeetingDetailSchema, type MeetingDetail } from '#shared/contracts/meetings.ts';
import { MyVoiceResponseSchema, VoiceSuggestionSchema, type MyVoiceResponse } from '#shared/contracts/voice-profiles.ts';
import { finalizeRecording } from '#server/features/recordings/finalize-recording.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { VOICE_LEARNING_PER_HOUR } from './voice-profiles.service.ts';
import type { TranscriptionEngine } from '#server/features/transcription/engines/engine.ts';
import { startFakeChatService, type FakeChatService } from '#tests/support/fake-openai-chat.ts';
import { createFakeSpeechEngine } from '#tests/support/fake-speech.ts';
import { cutSharedClip, sharedAudioDir } from '#tests/support/shared-audio.ts';
import { outbox } from '#tests/support/supabase-client.ts';

/**
 * Voice profiles through the real pipeline: recordings stored and decoded by ffmpeg, speakers found
 * by clustering and their voices described in the clustering host (the built-in path; the
 * recogniser is the fake one, lines of 10 s, since words do not matter here). Voices: a flite voice
 * in two meetings of different words (named at once), the LibriVox reader's first half and their
 * second through a boomier microphone (close enough to be suggested, not named), JFK as a stranger. Notes by the LLM engine, the fake chat
 * service its model: the prompt shows whose lines the notes were written from.
 */

let t: TestApp;
let llm: FakeChatService;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-voices-'));
type User = { token: string; id: string; email: string };
let owner: User;
let teammate: User;
let outsider: User;
let teamId: string;

const api = async (user: User, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) => {
  const response = await t.app.inject({ method, url, headers: { authorization: `Bearer ${user.token}` }, ...(payload ? { payload } : {}) });
  return { status: response.statusCode, body: response.json() as unknown, raw: response.body };
};

async function signUp(prefix: string, fullName: string): Promise<User> {
  const { token, userId, email } = await signUpUser(t.app, prefix, { fullName });
  return { token, id: userId, email };
}

/** A WAV of `voice` saying `lines`, with pauses between them, made with Debian's flite. */
function fliteClip(name: string, voice: string, lines: string[]): string {
  const parts = lines.map((line, i) => {
    const wav = path.join(scratch, `${name}-${i}.wav`);
    execFileSync('flite', ['-voice', voice, '-t', line, '-o', wav]);
    return wav;
  });
  const out = path.join(scratch, `${name}.wav`);
  const inputs = parts.flatMap((p) => ['-i', p]);
  const filter = `${parts.map((_, i) => `[${i}:a]`).join('')}concat=n=${parts.length}:v=0:a=1`;
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', ...inputs, '-filter_complex', filter, '-ac', '1', '-ar', '16000', out]);
  return out;
}

/** A stretch of one of the shared clips, as its own file (through ffmpeg's `filter`, if any). */
const cut = (clip: string, name: string, fromS: number, toS: number, filter?: string) =>
  cutSharedClip(clip, path.join(scratch, `${name}.wav`), fromS, toS, filter);

/** A meeting of `user` whose recording is `file`, transcribed (known voices named), and everything its transcript.ready sets off done (its notes). */
async function transcribed(user: User, title: string, file: string): Promise<MeetingDetail> {
  const created = await api(user, 'POST', '/api/v1/meetings', { title, source: 'upload' });
  const { id } = created.body as { id: string };
  const upload = path.join(scratch, `${id}.wav`);
  fs.copyFileSync(file, upload);
  await finalizeRecording(
    { meetings: t.deps.services.meetings, blobs: t.deps.blobs, maxRecordingHours: t.config.transcription.maxRecordingHours },
    { meetingId: id, mimeType: 'audio/wav', bytes: fs.statSync(upload).size, store: (extension, owner) => t.deps.blobs.adopt(upload, extension, owner) },
  );
  await t.deps.services.transcription.idle();
  await t.deps.jobs.idle();
  return meeting(user, id);
}

async function meeting(user: User, id: string): Promise<MeetingDetail> {
  const read = MeetingDetailSchema.parse((await api(user, 'GET', `/api/v1/meetings/${id}`)).body);
  expect(read.status, read.failureReason ?? '').toBe('ready');
  return read;
}

const voiceOf = async (user: User): Promise<MyVoiceResponse> => {
  const mine = await api(user, 'GET', '/api/v1/voice-profile');
  expect(mine.status, mine.raw).toBe(200);
  return MyVoiceResponseSchema.parse(mine.body);
};
const suggestionsOf = async (user: User, meetingId: string) =>
  z
    .array(VoiceSuggestionSchema)
    .parse(((await api(user, 'GET', `/api/v1/meetings/${meetingId}/voice-suggestions`)).body as { suggestions: unknown }).suggestions);
const names = (m: MeetingDetail) => m.speakers.map((s) => s.displayName ?? s.label);

/** The fake engine's lines, each a promise its speaker makes: the notes give each an action item owned by whoever said it. */
function promisingEngine(): TranscriptionEngine {
  const engine = createFakeSpeechEngine();
  return {
    ...engine,
    transcribe: async (pcm, options) =>
      (await engine.transcribe(pcm, options)).map((line) => {
        const text = 'I will send the budget report to the customers by Friday.';
        return { ...line, text, words: [{ ...line.words![0]!, text }] };
      }),
  };
}

let ownerVoice: [string, string];
let teammateVoice: [string, string];
let stranger: string;

beforeAll(async () => {
  llm = await startFakeChatService({ apiKey: 'sk-notes' });
  t = await buildTestApp({
    env: {
      AUTH_AUTOCONFIRM: 'true',
      AUTH_RATE_LIMITS: 'false',
      TRANSCRIBE_SPEAKERS: 'clustering',
      NOTES_ENGINE: 'llm',
      NOTES_LLM_URL: llm.url,
      NOTES_LLM_KEY: 'sk-notes',
      NOTES_LLM_MODEL: 'fake-notes-model',
    },
    deps: { speech: { engine: promisingEngine() } },
  });
  owner = await signUp('voice-owner', 'Olga Owner');
  teammate = await signUp('voice-mate', 'Tomasz Nowak');
  outsider = await signUp('voice-outsider', 'Otto Outsider');
  const team = await api(owner, 'POST', '/api/v1/teams', { name: 'Voices' });
  teamId = (team.body as { id: string }).id;
  const invitation = await api(owner, 'POST', `/api/v1/teams/${teamId}/invitations`, { email: teammate.email, role: 'member' });
  expect((await api(teammate, 'POST', `/api/v1/invitations/${(invitation.body as { token: string }).token}/accept`)).status).toBe(200);
  ownerVoice = [
    fliteClip('owner-1', 'kal16', [
      'good morning everyone let us review the budget for the next quarter',
      'i will ask the platform team to send the credentials today',
    ]),
    fliteClip('owner-2', 'kal16', [
      'the release is planned for thursday morning after the tests',
      'please send me the report on the customer feedback by friday',
    ]),
  ];
  // The second half as a boomier microphone hears it (the bass 13 dB up): the same voice, less surely.
  teammateVoice = [cut('librivox_ss_5utt.wav', 'reader-1', 0, 12.3), cut('librivox_ss_5utt.wav', 'reader-2', 12.3, 24.7, 'bass=g=13')];
  stranger = path.join(sharedAudioDir(), 'jfk.wav');
}, 120_000);

afterAll(async () => {
  await t?.close();
  await llm?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe('voice profiles', () => {
  it('says in Settings which voice-embedding path is active', async () => {
    const mine = await voiceOf(owner);
    expect(mine.profile).toBeNull();
    expect(mine.path).toEqual({ kind: 'built-in', model: null, reason: 'speakers are set to clustering (TRANSCRIBE_SPEAKERS=clustering)' });
  });

  it(
    'learns "this speaker is me" in a job with the consent recorded, and names the person in a later meeting, their notes too',
    { timeout: 120_000 },
    async () => {
      const first = await transcribed(owner, 'Budget review', ownerVoice[0]);
      expect(first.speakers).toHaveLength(1);
      const enrolled = await api(owner, 'POST', `/api/v1/meetings/${first.id}/speakers/${first.speakers[0]!.id}/voice`, { who: 'me' });
      expect(enrolled.status, enrolled.raw).toBe(202);
      expect(enrolled.body).toEqual({ outcome: 'learning', displayName: 'Olga Owner' });
      expect(names(await meeting(owner, first.id))).toEqual(['Olga Owner']);
      // The request only recorded the intent: the voice is learned by a job.
      const learning = await voiceOf(owner);
      expect(learning.profile).toBeNull();
      expect(learning.learning).toEqual([
        { id: expect.any(String), meetingId: first.id, meetingTitle: 'Budget review', status: 'pending', error: null, since: expect.any(String) },
      ]);
      await t.deps.jobs.idle();
      // The rename committed with the consent, and its transcript.edited with them: the action items' owners follow it.
      const firstOwners = (await meeting(owner, first.id)).insights.filter((i) => i.kind === 'action_item').map((i) => i.assignee);
      expect(firstOwners.length).toBeGreaterThan(0);
      expect(new Set(firstOwners)).toEqual(new Set(['Olga Owner']));
      const mine = await voiceOf(owner);
      expect(mine.learning).toEqual([]);
      expect(mine.profile?.sources).toEqual([
        { meetingId: first.id, meetingTitle: 'Budget review', via: 'enrolment', addedAt: expect.any(String), canOpen: true, state: 'current' },
      ]);
      expect(mine.profile?.paths).toEqual(['built-in:2']);
      const consents = await t.database.db.selectFrom('voice_consents').selectAll().where('person_id', '=', owner.id).execute();
      expect(consents).toEqual([expect.objectContaining({ requested_by: owner.id, meeting_id: first.id, status: 'accepted', decided_at: expect.any(String) })]);

      const asked = llm.requests.length;
      const later = await transcribed(owner, 'Release planning', ownerVoice[1]);
      expect(names(later)).toEqual(['Olga Owner']);
      // The speaker was named before the transcript was stored: the notes were written from the
      // person's lines, and are not out of date the moment they are there.
      const prompts = llm.requests.slice(asked).flatMap((r) => r.messages.filter((m) => m.role === 'user').map((m) => m.content));
      expect(prompts.length).toBeGreaterThan(0);
      for (const prompt of prompts) {
        expect(prompt).toContain('] Olga Owner: ');
        expect(prompt).not.toContain('] Speaker 1: ');
      }
      expect(later.notes).toMatchObject({ status: 'ready', engine: 'llm', outOfDate: false });
      // The notes give the promises to the person the voice named.
      const owners = later.insights.filter((i) => i.kind === 'action_item').map((i) => i.assignee);
      expect(owners.length).toBeGreaterThan(0);
      expect(new Set(owners)).toEqual(new Set(['Olga Owner']));
      // Nothing is asked of a stranger's voice, and the stranger is not named.
      const jfk = await transcribed(owner, 'Inaugural', stranger);
      expect(names(jfk)).toEqual(['Speaker 1']);
      expect(await suggestionsOf(owner, jfk.id)).toEqual([]);
    },
  );

  it('keeps a teammate\u2019s voice only once they accept, asked in the bell and by email', { timeout: 120_000 }, async () => {
    const first = await transcribed(owner, 'Reading, part one', teammateVoice[0]);
    const speakerId = first.speakers[0]!.id;
    // Only a teammate: someone who shares no team with the owner is not found.
    expect((await api(owner, 'POST', `/api/v1/meetings/${first.id}/speakers/${speakerId}/voice`, { who: 'teammate', userId: outsider.id })).status).toBe(404);
    // Only those who may read the meeting say they are a speaker of it: this one is the owner's own.
    expect((await api(teammate, 'POST', `/api/v1/meetings/${first.id}/speakers/${speakerId}/voice`, { who: 'me' })).status).toBe(404);

    const asked = await api(owner, 'POST', `/api/v1/meetings/${first.id}/speakers/${speakerId}/voice`, { who: 'teammate', userId: teammate.id });
    expect(asked.body).toEqual({ outcome: 'asked', displayName: 'Tomasz Nowak' });
    await t.deps.jobs.idle();
    const before = await voiceOf(teammate);
    expect(before.profile).toBeNull();
    expect(before.requests).toEqual([
      {
        id: expect.any(String),
        requestedBy: { id: owner.id, name: 'Olga Owner' },
        meetingTitle: 'Reading, part one',
        team: { id: teamId, name: 'Voices' },
        createdAt: expect.any(String),
      },
    ]);
    const bell = (await api(teammate, 'GET', '/api/v1/notifications')).body as { items: { kind: string; title: string; link: string }[] };
    expect(bell.items).toContainEqual(
      expect.objectContaining({ kind: 'voice_consent', title: 'Olga Owner asks to keep a voice profile of you', link: '/settings?tab=privacy#voice-profile' }),
    );
    expect(outbox(t.config.dataDir, teammate.email).map((m) => m.subject)).toContain('Olga Owner asks to keep a voice profile of you');
    expect(await t.database.db.selectFrom('voice_profile_samples').select('id').where('user_id', '=', teammate.id).execute()).toEqual([]);

    // Someone else cannot answer it.
    expect((await api(owner, 'POST', `/api/v1/voice-profile/requests/${before.requests[0]!.id}`, { accept: true })).status).toBe(404);
    const accepted = MyVoiceResponseSchema.parse(
      (await api(teammate, 'POST', `/api/v1/voice-profile/requests/${before.requests[0]!.id}`, { accept: true })).body,
    );
    expect(accepted.requests).toEqual([]);
    expect(accepted.learning).toEqual([expect.objectContaining({ meetingTitle: 'Reading, part one', status: 'pending' })]);
    await t.deps.jobs.idle();
    const learned = await voiceOf(teammate);
    expect(learned.learning).toEqual([]);
    expect(learned.profile?.team).toEqual({ id: teamId, name: 'Voices' });
    // Their data export holds the consent and the numbers kept, never audio.
    const exported = await t.deps.services.voiceProfiles.exportFor(teammate.id);
    expect(exported?.consents).toEqual([expect.objectContaining({ meetingTitle: 'Reading, part one', requestedBy: owner.id, status: 'accepted' })]);
    expect(exported?.voices.map((v) => [v.path, v.embedding.length])).toEqual([['built-in:2', 24]]);
    // The teammate cannot open the owner's private meeting, but sees where their voice came from.
    expect(learned.profile?.sources).toEqual([expect.objectContaining({ meetingId: first.id, meetingTitle: 'Reading, part one', canOpen: false })]);
  });

  it('learns an accepted voice from the event recorded with the acceptance, once however often it is delivered', async () => {
    const db = t.database.db;
    // The acceptance and the learning it asks for commit together: a process dying right after it leaves the event to deliver, not a voice "Learning…" for good.
    const [consent] = await db.selectFrom('voice_consents').select('id').where('person_id', '=', teammate.id).execute();
    const requested = await db
      .selectFrom('domain_events')
      .selectAll()
      .where('type', '=', 'voice.learning_requested')
      .where('owner_id', '=', teammate.id)
      .execute();
    expect(
      requested.map((e) => ({
        actorId: e.actor_id,
        subject: `${e.subject_type}:${e.subject_id}`,
        teamId: e.team_id,
        payload: JSON.parse(e.payload) as unknown,
      })),
    ).toEqual([{ actorId: teammate.id, subject: `user:${teammate.id}`, teamId, payload: { kind: 'consent', id: consent!.id } }]);
    const delivery = () =>
      db.selectFrom('event_deliveries').select('status').where('event_seq', '=', requested[0]!.seq).where('subscriber', '=', 'voice-profiles').execute();
    expect(await delivery()).toEqual([{ status: 'done' }]);

    // Delivered again (at least once): the voice learned already is not learned twice.
    await db.updateTable('event_deliveries').set({ status: 'pending' }).where('event_seq', '=', requested[0]!.seq).execute();
    await t.deps.events.sweep();
    await t.deps.jobs.idle();
    expect(await delivery()).toEqual([{ status: 'done' }]);
    const mine = await voiceOf(teammate);
    expect(mine.learning).toEqual([]);
    expect(mine.profile?.sources.map((s) => s.meetingTitle)).toEqual(['Reading, part one']);
    expect(await db.selectFrom('voice_profile_samples').select('id').where('user_id', '=', teammate.id).execute()).toHaveLength(1);
  });

  it('suggests a weaker match: a rejection is never asked again, an acceptance names the speaker and teaches the profile', { timeout: 180_000 }, async () => {
    const rejected = await transcribed(owner, 'Reading, part two', teammateVoice[1]);
    expect(names(rejected)).toEqual(['Speaker 1']);
    const [suggestion] = await suggestionsOf(owner, rejected.id);
    expect(suggestion).toEqual({ id: expect.any(String), speakerId: rejected.speakers[0]!.id, person: { id: teammate.id, name: 'Tomasz Nowak' } });
    // Only the owner answers.
    expect((await api(teammate, 'POST', `/api/v1/meetings/${rejected.id}/voice-suggestions/${suggestion!.id}`, { accept: true })).status).toBe(404);
    const afterReject = await api(owner, 'POST', `/api/v1/meetings/${rejected.id}/voice-suggestions/${suggestion!.id}`, { accept: false });
    expect(afterReject.body).toEqual({ suggestions: [], learning: [] });
    expect(names(await meeting(owner, rejected.id))).toEqual(['Speaker 1']);

    const again = await transcribed(owner, 'Reading, part two again', teammateVoice[1]);
    const [other] = await suggestionsOf(owner, again.id);
    expect(other?.person.name).toBe('Tomasz Nowak');
    // Yes names the speaker at once; the voice is taught to the profile by a job.
    expect((await api(owner, 'POST', `/api/v1/meetings/${again.id}/voice-suggestions/${other!.id}`, { accept: true })).body).toEqual({
      suggestions: [],
      learning: [{ id: other!.id, speakerId: other!.speakerId, person: { id: teammate.id, name: 'Tomasz Nowak' }, status: 'pending', error: null }],
    });
    expect(names(await meeting(owner, again.id))).toEqual(['Tomasz Nowak']);
    await t.deps.jobs.idle();
    expect((await api(owner, 'GET', `/api/v1/meetings/${again.id}/voice-suggestions`)).body).toEqual({ suggestions: [], learning: [] });
    const sources = (await voiceOf(teammate)).profile?.sources.map((s) => [s.meetingTitle, s.via]);
    expect(sources).toEqual(
      expect.arrayContaining([
        ['Reading, part one', 'enrolment'],
        ['Reading, part two again', 'suggestion'],
      ]),
    );
  });

  it('deletes a profile at once: later meetings no longer use it', { timeout: 120_000 }, async () => {
    const deleted = MyVoiceResponseSchema.parse((await api(teammate, 'DELETE', '/api/v1/voice-profile')).body);
    expect(deleted.profile).toBeNull();
    expect(await t.database.db.selectFrom('voice_profile_samples').select('id').where('user_id', '=', teammate.id).execute()).toEqual([]);
    const after = await transcribed(owner, 'Reading after deletion', teammateVoice[1]);
    expect(names(after)).toEqual(['Speaker 1']);
    expect(await suggestionsOf(owner, after.id)).toEqual([]);
  });

  it('lets a teammate say "this speaker is me" on a meeting shared with them, their own consent', { timeout: 120_000 }, async () => {
    const shared = await transcribed(owner, 'Reading together', teammateVoice[0]);
    const speakerId = shared.speakers[0]!.id;
    // The teammate chooses the team whose meetings may name them.
    const enrol = (user: User) => api(user, 'POST', `/api/v1/meetings/${shared.id}/speakers/${speakerId}/voice`, { who: 'me', teamId });
    // Not shared yet: the teammate cannot read it, so it is not found.
    expect((await enrol(teammate)).status).toBe(404);
    expect((await api(owner, 'PATCH', `/api/v1/meetings/${shared.id}`, { teamId })).status).toBe(200);
    expect((await api(outsider, 'POST', `/api/v1/meetings/${shared.id}/speakers/${speakerId}/voice`, { who: 'me' })).status).toBe(404);
    const enrolled = await enrol(teammate);
    expect(enrolled.status, enrolled.raw).toBe(202);
    expect(enrolled.body).toEqual({ outcome: 'learning', displayName: 'Tomasz Nowak' });
    // The speaker is named for the owner too, as a match of the teammate's profile would name them.
    expect(names(await meeting(owner, shared.id))).toEqual(['Tomasz Nowak']);
    await t.deps.jobs.idle();
    const mine = await voiceOf(teammate);
    expect(mine.profile?.team).toEqual({ id: teamId, name: 'Voices' });
    expect(mine.profile?.sources).toEqual([
      { meetingId: shared.id, meetingTitle: 'Reading together', via: 'enrolment', addedAt: expect.any(String), canOpen: true, state: 'current' },
    ]);
    const consents = await t.database.db.selectFrom('voice_consents').selectAll().where('meeting_id', '=', shared.id).execute();
    expect(consents).toEqual([expect.objectContaining({ person_id: teammate.id, requested_by: teammate.id, status: 'accepted', learning: null })]);
  });

  it('says on the meeting why an accepted suggestion’s voice could not be learned', { timeout: 120_000 }, async () => {
    const later = await transcribed(owner, 'Reading, part two, corrected', teammateVoice[1]);
    const [suggestion] = await suggestionsOf(owner, later.id);
    expect(suggestion?.person.name).toBe('Tomasz Nowak');
    // The owner gives the speaker's first line to someone else: what is left of the voice is too short to learn.
    const first = later.segments.find((s) => s.speakerId === suggestion!.speakerId)!;
    const moved = await api(owner, 'POST', `/api/v1/meetings/${later.id}/segments/speaker`, { segmentIds: [first.id], speakerId: 'new' });
    expect(moved.status, moved.raw).toBe(200);
    const accepted = await api(owner, 'POST', `/api/v1/meetings/${later.id}/voice-suggestions/${suggestion!.id}`, { accept: true });
    expect(accepted.status, accepted.raw).toBe(200);
    await t.deps.jobs.idle();
    expect(names(await meeting(owner, later.id))).toContain('Tomasz Nowak');
    expect((await api(owner, 'GET', `/api/v1/meetings/${later.id}/voice-suggestions`)).body).toEqual({
      suggestions: [],
      learning: [
        {
          id: suggestion!.id,
          speakerId: suggestion!.speakerId,
          person: { id: teammate.id, name: 'Tomasz Nowak' },
          status: 'failed',
          error: 'Could not learn this voice: This speaker says too little in the recording to learn their voice (at least 3 seconds of speech).',
        },
      ],
    });
    expect((await voiceOf(teammate)).profile?.sources.map((s) => s.meetingTitle)).toEqual(['Reading together']);
    expect((await api(teammate, 'DELETE', '/api/v1/voice-profile')).status).toBe(200);
  });

  it('says why a voice could not be learned, never silently', { timeout: 120_000 }, async () => {
    const short = await transcribed(owner, 'Go forward', path.join(sharedAudioDir(), 'goforward.wav'));
    const enrolled = await api(owner, 'POST', `/api/v1/meetings/${short.id}/speakers/${short.speakers[0]!.id}/voice`, { who: 'me' });
    expect(enrolled.status, enrolled.raw).toBe(202);
    await t.deps.jobs.idle();
    expect((await voiceOf(owner)).learning).toEqual([
      {
        id: expect.any(String),
        meetingId: short.id,
        meetingTitle: 'Go forward',
        status: 'failed',
        error: 'Could not learn this voice: This speaker says too little in the recording to learn their voice (at least 3 seconds of speech).',
        since: expect.any(String),
      },
    ]);
    // The profile keeps what it had.
    expect((await voiceOf(owner)).profile?.sources.map((s) => s.meetingTitle)).toEqual(['Budget review']);
  });

  it('learns no voice from a meeting without a recording, and at most VOICE_LEARNING_PER_HOUR voices an hour', async () => {
    const person = await signUp('voice-limit', 'Lena Limit');
    const imported = await api(person, 'POST', '/api/v1/meetings/imports', { fileName: 'notes.txt', content: 'Lena: hello there\nLena: and again' });
    expect(imported.status, imported.raw).toBe(201);
    const meeting = MeetingDetailSchema.parse(imported.body);
    const enrol = () => api(person, 'POST', `/api/v1/meetings/${meeting.id}/speakers/${meeting.speakers[0]!.id}/voice`, { who: 'me' });
    const refused = await enrol();
    expect(refused.status).toBe(400);
    expect((refused.body as { error: { message: string } }).error.message).toBe('This meeting has no recording to learn a voice from.');
    for (let i = 1; i < VOICE_LEARNING_PER_HOUR; i++) expect((await enrol()).status).toBe(400);
    const limited = await enrol();
    expect(limited.status).toBe(429);
    expect((limited.body as { error: { message: string } }).error.message).toMatch(/^Too many voices learned this hour; try again in \d+ min\.$/);
    expect((await voiceOf(person)).profile).toBeNull();
  });

  it('learns voices described another way again from their meetings, and asks for a new sample where the recording is gone', { timeout: 180_000 }, async () => {
    const person = await signUp('voice-relearn', 'Rita Relearn');
    const kept = await transcribed(person, 'Old budget', ownerVoice[0]);
    const gone = await transcribed(person, 'Old stand-up', ownerVoice[1]);
    // A profile kept by a speaker-embedding model no longer installed, and before the built-in voices
    // were brought to one level: numbers of other keys, never compared with the active path's.
    const db = t.database.db;
    const oldNumbers = JSON.stringify(Array.from({ length: 24 }, (_, i) => (i < 12 ? -3 + i / 2 : 4 - i / 8)));
    await db
      .insertInto('voice_profiles')
      .values({ user_id: person.id, team_id: null, created_at: '2026-12-01T10:00:00.000Z', updated_at: '2026-12-01T10:00:00.000Z' })
      .execute();
    await db
      .insertInto('voice_profile_samples')
      .values(
        [kept, gone].map((m, i) => ({
          id: crypto.randomUUID(),
          user_id: person.id,
          meeting_id: m.id,
          meeting_title: m.title,
          speaker_id: m.speakers[0]!.id,
          via: 'enrolment' as const,
          path: m === kept ? 'sherpa-onnx:nemo_en_titanet_small' : 'built-in',
          embedding: oldNumbers,
          created_at: `2026-12-0${i + 1}T10:00:00.000Z`,
        })),
      )
      .execute();
    expect((await api(person, 'DELETE', `/api/v1/meetings/${gone.id}`)).status).toBe(200);
    const before = await transcribed(person, 'Before relearning', ownerVoice[1]);
    expect(names(before)).toEqual(['Speaker 1']);
    expect(await suggestionsOf(person, before.id)).toEqual([]);
    expect((await voiceOf(person)).profile?.sources.map((s) => [s.meetingTitle, s.state])).toEqual([
      ['Old stand-up', 'relearning'],
      ['Old budget', 'relearning'],
    ]);

    // At start: each old description learned again by the voice-learning job.
    expect(await t.deps.services.voiceProfiles.relearnOutdated()).toBe(2);
    await t.deps.jobs.idle();
    const mine = await voiceOf(person);
    expect(mine.profile?.sources.map((s) => [s.meetingTitle, s.state])).toEqual([
      ['Old stand-up', 'needs a new sample'],
      ['Old budget', 'current'],
    ]);
    const samples = await db.selectFrom('voice_profile_samples').selectAll().where('user_id', '=', person.id).orderBy('created_at').execute();
    expect(samples.map((s) => [s.meeting_id, s.path, s.relearn_error])).toEqual([
      [kept.id, 'built-in:2', null],
      [gone.id, 'built-in', 'Could not learn this voice again: The speaker is no longer in this meeting.'],
    ]);
    const relearned = JSON.parse(samples[0]!.embedding) as number[];
    expect(relearned).toHaveLength(24);
    expect(relearned).not.toEqual(JSON.parse(oldNumbers));
    // The voice learned again names the person; the one that could not be is not tried again.
    expect(names(await transcribed(person, 'After relearning', ownerVoice[1]))).toEqual(['Rita Relearn']);
    expect(await t.deps.services.voiceProfiles.relearnOutdated()).toBe(0);
  });

  it('deletes the profile with the account', { timeout: 120_000 }, async () => {
    // The owner of a team with members cannot delete their account: someone alone does.
    const own = await transcribed(outsider, 'My own budget', ownerVoice[0]);
    expect((await api(outsider, 'POST', `/api/v1/meetings/${own.id}/speakers/${own.speakers[0]!.id}/voice`, { who: 'me' })).status).toBe(202);
    await t.deps.jobs.idle();
    expect((await voiceOf(outsider)).profile).not.toBeNull();
    const deleted = await api(outsider, 'DELETE', '/api/v1/me', { email: outsider.email, password: 'secret12' });
    expect(deleted.status, deleted.raw).toBe(200);
    for (const table of ['voice_profiles', 'voice_profile_samples'] as const) {
      expect(await t.database.db.selectFrom(table).select('user_id').where('user_id', '=', outsider.id).execute()).toEqual([]);
    }
    expect(await t.database.db.selectFrom('voice_consents').select('id').where('person_id', '=', outsider.id).execute()).toEqual([]);
  });
});
