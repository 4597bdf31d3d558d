import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MeetingDetail } from '#shared/contracts/meetings.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { startFakeChatService, type FakeChatService } from '#tests/support/fake-openai-chat.ts';
import { createFakeSpeakerIdentifier, createFakeSpeechEngine } from '#tests/support/fake-speech.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';

// "Anonymous Emotional Analysis" by the operator's emotion provider (issue 34): a local
// OpenAI-compatible chat server stands in for it. With the meeting's option on, only anonymised text
// reaches it (no names, emails, numbers, speakers or audio) and its scores become the meeting's
// sentiment; with the option off, or for an imported transcript, nothing is sent; a provider that
// fails leaves the local sentiment.

const ENV = { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' };
const CLIP = path.join(sharedAudioDir(), 'goforward.wav');
const b64 = (value: string) => Buffer.from(value).toString('base64');
type User = { token: string; userId: string; email: string };

const TRANSCRIPT = [
  'I am so glad we closed the Acme deal for $12,500, thanks to everyone.',
  'I am worried we are late on delivery, mail tom.berg@example.com or call 555-0100.',
];

describe('the operator’s emotion provider', () => {
  let t: TestApp;
  let chat: FakeChatService;
  const inject = (user: User, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    t.app.inject({ method, url, payload: payload as object, headers: { authorization: `Bearer ${user.token}` } });
  const sentiments = async (meetingId: string) =>
    (
      await t.deps.database.db
        .selectFrom('transcript_segments')
        .select(['id', 'text', 'sentiment'])
        .where('meeting_id', '=', meetingId)
        .orderBy('start_ms')
        .execute()
    ).map((s) => ({ id: s.id, text: s.text, sentiment: s.sentiment === null ? null : Number(s.sentiment) }));
  const delivered = (meetingId: string) =>
    expect
      .poll(
        async () =>
          (
            await t.deps.database.db
              .selectFrom('event_deliveries')
              .select('status')
              .where('subscriber', '=', 'emotion')
              .where('subject', '=', `meeting:${meetingId}`)
              .execute()
          ).map((d) => d.status),
        { timeout: 30_000 },
      )
      // Every delivery of the meeting's events to the emotion subscriber done (at least the transcript's).
      .toSatisfy((statuses: string[]) => statuses.length > 0 && statuses.every((status) => status === 'done'));
  const settled = async (meetingId: string) => {
    await delivered(meetingId);
    await t.deps.jobs.idle();
  };
  const userLines = () => chat.requests.map((r) => r.messages.find((m) => m.role === 'user')?.content ?? '');

  beforeAll(async () => {
    chat = await startFakeChatService({ apiKey: 'emotion-key' });
    t = await buildTestApp({
      env: { ...ENV, EMOTION_API_URL: chat.url, EMOTION_API_KEY: 'emotion-key', EMOTION_MODEL: 'fake-notes-model' },
      deps: { speech: { engine: createFakeSpeechEngine(), speakers: createFakeSpeakerIdentifier() } },
    });
  });
  afterAll(async () => {
    await t?.close();
    await chat?.close();
  });

  /** A meeting recorded on /record with these options: the clip sent with tus, transcribed (fake speech: "Line 1 of the recording."). */
  async function recordedMeeting(user: User, options: { emotionalAnalysis?: boolean } = {}): Promise<string> {
    const created = await inject(user, 'POST', '/api/v1/meetings', { title: 'Weekly sync', source: 'upload', options });
    expect(created.statusCode).toBe(201);
    const meeting = created.json() as MeetingDetail;
    const data = fs.readFileSync(CLIP);
    const auth = { authorization: `Bearer ${user.token}` };
    const upload = await t.app.inject({
      method: 'POST',
      url: '/uploads',
      headers: {
        ...auth,
        'tus-resumable': '1.0.0',
        'upload-length': String(data.length),
        'upload-metadata': `meetingId ${b64(meeting.id)},filetype ${b64('audio/wav')}`,
      },
    });
    const sentAudio = await t.app.inject({
      method: 'PATCH',
      url: new URL(upload.headers.location as string, t.baseUrl).pathname,
      headers: { ...auth, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      payload: data,
    });
    expect(sentAudio.statusCode).toBe(204);
    await expect
      .poll(async () => (await inject(user, 'GET', `/api/v1/meetings/${meeting.id}`)).json<MeetingDetail>().status, { timeout: 60_000 })
      .toBe('ready');
    return meeting.id;
  }

  it(
    'option on: sends only anonymised text, its scores become the meeting’s sentiment, and an edited line alone is sent again',
    { timeout: 120_000 },
    async () => {
      const ada = await signUpUser(t.app, 'ada');
      const requests = chat.requests.length;
      const meetingId = await recordedMeeting(ada);
      await settled(meetingId);
      expect(chat.requests.length).toBe(requests + 1);
      expect(chat.requests.at(-1)!.authorization).toBe('Bearer emotion-key');
      expect(userLines().at(-1)).toMatch(/^Lines:\n1\. Line \[number\] of the recording\./);

      const [first] = await sentiments(meetingId);
      for (const [text, score] of [
        [TRANSCRIPT[0]!, 0.8],
        [TRANSCRIPT[1]!, -0.7],
      ] as const) {
        const edited = await inject(ada, 'PATCH', `/api/v1/meetings/${meetingId}/segments/${first!.id}`, { text });
        expect(edited.statusCode).toBe(200);
        await expect.poll(async () => (await sentiments(meetingId))[0]!.sentiment, { timeout: 30_000 }).toBe(score);
      }
      await settled(meetingId);
      expect(chat.requests.length).toBe(requests + 3);
      expect(userLines().slice(-2)).toEqual([
        'Lines:\n1. I am so glad we closed the [name] deal for [number], thanks to everyone.',
        'Lines:\n1. I am worried we are late on delivery, mail [email] or call [number].',
      ]);
      const sent = userLines().join('\n');
      for (const secret of ['Acme', '12,500', '555-0100', 'example.com', 'Weekly sync']) expect(sent).not.toContain(secret);
    },
  );

  it('option off: the recording is transcribed and nothing of it is sent', { timeout: 90_000 }, async () => {
    const bo = await signUpUser(t.app, 'bo');
    const requests = chat.requests.length;
    const meetingId = await recordedMeeting(bo, { emotionalAnalysis: false });
    expect((await sentiments(meetingId)).length).toBeGreaterThan(0);
    await settled(meetingId);
    expect(chat.requests.length).toBe(requests);
  });

  it('an imported transcript, whose options nobody chose, stays on this server with its local sentiment', async () => {
    const di = await signUpUser(t.app, 'di');
    const requests = chat.requests.length;
    const imported = await inject(di, 'POST', '/api/v1/meetings/imports', {
      fileName: 'deal.txt',
      content: TRANSCRIPT.map((line) => `Maria: ${line}`).join('\n'),
      title: 'Deal review',
    });
    expect(imported.statusCode).toBe(201);
    const meeting = imported.json() as MeetingDetail;
    await settled(meeting.id);
    expect(chat.requests.length).toBe(requests);
    expect((await sentiments(meeting.id))[0]!.sentiment).toBeGreaterThan(0);
  });

  it('a provider answering nonsense leaves the sentiment computed here', { timeout: 90_000 }, async () => {
    const cy = await signUpUser(t.app, 'cy');
    chat.behave('malformed');
    const requests = chat.requests.length;
    try {
      const meetingId = await recordedMeeting(cy);
      const [line] = await sentiments(meetingId);
      const local = line!.sentiment;
      const edited = await inject(cy, 'PATCH', `/api/v1/meetings/${meetingId}/segments/${line!.id}`, { text: 'What a wonderful, excellent week.' });
      expect(edited.statusCode).toBe(200);
      await settled(meetingId);
      expect(chat.requests.length).toBeGreaterThan(requests); // the provider was asked, and its answer not used
      const [after] = await sentiments(meetingId);
      expect(after!.sentiment).toBeGreaterThan(0);
      expect(after!.sentiment).not.toBe(0.8);
      expect(local).not.toBeNull();
    } finally {
      chat.behave('ok');
    }
  });
});
