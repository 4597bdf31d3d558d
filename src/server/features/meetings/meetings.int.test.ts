import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MeetingDetailSchema, MeetingListResponseSchema, type MeetingDetail, type MeetingListResponse } from '#shared/contracts/meetings.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' } });
});
afterAll(() => t.close());

const newUser = async () => (await signUpUser(t.app, 'meetings')).token;

const api = async (token: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) => {
  const response = await t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
  return { status: response.statusCode, body: response.json() as unknown };
};

const list = async (token: string, query = '') => {
  const { status, body } = await api(token, 'GET', `/api/v1/meetings${query}`);
  expect(status).toBe(200);
  return MeetingListResponseSchema.parse(body) as MeetingListResponse;
};

const titles = (page: MeetingListResponse) => page.items.map((m) => m.title);

describe('a new account', () => {
  it('starts with six sample meetings, newest first, with transcripts and insights', async () => {
    const token = await newUser();
    const page = await list(token);
    expect(page.total).toBe(6);
    expect(page.items.every((m) => m.isSample && m.status === 'ready' && m.source === 'sample')).toBe(true);
    const started = page.items.map((m) => m.startedAt);
    expect(started).toEqual([...started].sort().reverse());
    expect(page.items[0]?.title).toBe('Weekly Team Standup');
    const detail = MeetingDetailSchema.parse((await api(token, 'GET', `/api/v1/meetings/${page.items[0]!.id}`)).body) as MeetingDetail;
    expect(detail.segments.length).toBeGreaterThan(3);
    expect(detail.speakers.map((s) => s.displayName)).toContain('Sarah Miller');
    expect(detail.insights.some((i) => i.kind === 'action_item' && i.assignee && i.due)).toBe(true);
  });

  it('has usage statistics from its own meetings, the samples left out and counted apart', async () => {
    const token = await newUser();
    const { status, body } = await api(token, 'GET', '/api/v1/meetings/stats');
    expect(status).toBe(200);
    // Six samples and nothing of its own: no hours, no meetings (the samples would read as 4.4 hours of work).
    expect(body).toMatchObject({ meetings: 0, meetingsTranscribed: 0, hoursRecorded: 0, sampleMeetings: 6, storageBytes: 0, storagePercent: 0 });
    // The insight counts beside them leave the samples out the same way (their notes hold 6 action items and 5 decisions).
    expect((body as { insights: unknown }).insights).toEqual({ keyPoints: 0, actionItems: 0, decisions: 0, topics: 0 });

    await api(token, 'POST', '/api/v1/meetings/imports', { fileName: 'Mine.txt', content: 'Alice: We ship on Friday.' });
    expect((await api(token, 'GET', '/api/v1/meetings/stats')).body).toMatchObject({ meetings: 1, meetingsTranscribed: 1, sampleMeetings: 6 });
    await api(token, 'DELETE', '/api/v1/meetings/samples');
    expect((await api(token, 'GET', '/api/v1/meetings/stats')).body).toMatchObject({ meetings: 1, meetingsTranscribed: 1, sampleMeetings: 0 });
  });

  it('can remove all sample meetings in one action, keeping its own', async () => {
    const token = await newUser();
    await api(token, 'POST', '/api/v1/meetings', { title: 'Mine' });
    const removed = await api(token, 'DELETE', '/api/v1/meetings/samples');
    expect(removed).toEqual({ status: 200, body: { deleted: 6 } });
    expect(titles(await list(token))).toEqual(['Mine']);
  });
});

describe('search and filters', () => {
  let token: string;
  beforeAll(async () => {
    token = await newUser();
  });

  it('finds meetings by title, summary and transcript words, as a prefix while typing', async () => {
    expect(titles(await list(token, '?q=roadmap'))).toEqual(['Product Roadmap Review']);
    expect(titles(await list(token, '?q=gateway%20credentials'))).toEqual(['Weekly Team Standup']); // transcript only
    expect(titles(await list(token, '?q=win-back'))).toEqual(['Quarterly Sales Review']);
    expect(titles(await list(token, '?q=retrosp'))).toEqual(['Engineering Retrospective']);
    expect((await list(token, '?q=zebra')).total).toBe(0);
  });

  it('treats search text as words, never as query syntax', async () => {
    for (const q of ['"', 'NEAR(', 'a OR b', '*', 'title:x', "' or 1=1 --", '(((', '!!!']) {
      const { status } = await api(token, 'GET', `/api/v1/meetings?q=${encodeURIComponent(q)}`);
      expect(status).toBe(200);
    }
    // FTS operators are plain words here: every word must match, so this finds nothing.
    expect((await list(token, `?q=${encodeURIComponent('"roadmap" NEAR zebra')}`)).total).toBe(0);
    expect(titles(await list(token, `?q=${encodeURIComponent('"roadmap"*')}`))).toEqual(['Product Roadmap Review']);
  });

  it('filters by participant (any case), status and date range, and pages', async () => {
    expect(titles(await list(token, '?participant=sarah%20miller')).sort()).toEqual(['Product Roadmap Review', 'Weekly Team Standup']);
    expect((await list(token, '?status=recording')).total).toBe(0);
    const all = await list(token);
    const oldest = all.items.at(-1)!.startedAt.slice(0, 10);
    expect(titles(await list(token, `?from=${oldest}&to=${oldest}`))).toEqual(['Engineering Retrospective']);
    const first = await list(token, '?pageSize=4&page=1');
    const second = await list(token, '?pageSize=4&page=2');
    expect(first.items).toHaveLength(4);
    expect(second.items).toHaveLength(2);
    expect(new Set([...titles(first), ...titles(second)]).size).toBe(6);
  });

  it('counts a participant’s meetings right whether the name is in few or many of other people’s', async () => {
    // SQLite counts from whichever side is smaller: the meetings the name is in (anyone's) or the reader's own.
    const name = `Zed Quist ${crypto.randomUUID().slice(0, 8)}`;
    const query = `?participant=${encodeURIComponent(name.toUpperCase())}`;
    const create = async (owner: string, title: string) =>
      MeetingDetailSchema.parse((await api(owner, 'POST', '/api/v1/meetings', { title, participants: ['Ada', name] })).body);
    await create(token, 'With Zed');
    const mine = await list(token, query);
    expect([titles(mine), mine.total]).toEqual([['With Zed'], 1]); // the name in 1 meeting, the reader has 7
    expect((await list(token, `${query}&status=ready`)).total).toBe(0);

    const other = await newUser();
    for (let i = 0; i < 8; i++) await create(other, `Theirs ${i}`);
    const again = await list(token, query);
    expect([titles(again), again.total]).toEqual([['With Zed'], 1]); // the name in 9 meetings, the reader has 7
    const theirs = await list(other, `${query}&pageSize=5`);
    expect([theirs.items.length, theirs.total]).toEqual([5, 8]);
  });

  it('rejects bad queries with a clear 400', async () => {
    const bad = await api(token, 'GET', '/api/v1/meetings?pageSize=1000');
    expect(bad.status).toBe(400);
    expect((bad.body as { error: { code: string; message: string } }).error.code).toBe('VALIDATION_FAILED');
    expect((await api(token, 'GET', '/api/v1/meetings?from=yesterday')).status).toBe(400);
    expect((await api(token, 'GET', '/api/v1/meetings/not-a-uuid')).status).toBe(400);
  });
});

describe('editing', () => {
  it('creates, renames, edits the transcript and speakers, and the search follows', async () => {
    const token = await newUser();
    const created = await api(token, 'POST', '/api/v1/meetings', { title: '  ', options: { highQuality: true } });
    expect(created.status).toBe(201);
    const meeting = MeetingDetailSchema.parse(created.body);
    expect(meeting.title).toBe('Untitled Meeting');
    expect(meeting.status).toBe('recording');
    expect(meeting.options).toEqual({
      speakerDetection: true,
      emotionalAnalysis: true,
      actionItems: true,
      summary: true,
      noiseReduction: true,
      highQuality: true,
      autoShare: false,
    });

    const renamed = await api(token, 'PATCH', `/api/v1/meetings/${meeting.id}`, { title: 'Budget planning', participants: ['Ada', 'ada', 'Grace'] });
    expect((renamed.body as MeetingDetail).participants).toEqual(['Ada', 'Grace']);
    expect(titles(await list(token, '?q=budget'))).toEqual(['Budget planning']);

    const sample = (await list(token, '?q=retrospective')).items[0]!;
    const detail = (await api(token, 'GET', `/api/v1/meetings/${sample.id}`)).body as MeetingDetail;
    const segment = detail.segments[0]!;
    const edited = await api(token, 'PATCH', `/api/v1/meetings/${sample.id}/segments/${segment.id}`, { text: 'We discussed the xylophone budget.' });
    expect(edited.status).toBe(200);
    expect(titles(await list(token, '?q=xylophone'))).toEqual(['Engineering Retrospective']);
    const speaker = detail.speakers[0]!;
    const renamedSpeaker = await api(token, 'PATCH', `/api/v1/meetings/${sample.id}/speakers/${speaker.id}`, { displayName: 'Alexandra' });
    expect((renamedSpeaker.body as MeetingDetail).speakers[0]?.displayName).toBe('Alexandra');
    expect((await api(token, 'PATCH', `/api/v1/meetings/${sample.id}`, {})).status).toBe(400);
  });

  it('counts named speakers as participants, in step with renames, and finds the meeting by them', async () => {
    const token = await newUser();
    const created = MeetingDetailSchema.parse((await api(token, 'POST', '/api/v1/meetings', { title: 'Pairing', participants: ['Ada'] })).body);
    await t.deps.services.meetings.recordingStored(created.id, { key: `test/${created.id}.webm`, mime: 'audio/webm', bytes: 1, durationSeconds: 20 });
    await t.deps.services.meetings.completeTranscription(created.id, {
      speakers: [{ label: 'Speaker 1', displayName: 'ada' }, { label: 'Speaker 2' }],
      segments: [
        { speaker: 0, startMs: 0, endMs: 5000, text: 'Shall we start?' },
        { speaker: 1, startMs: 5000, endMs: 9000, text: 'Yes, go ahead.' },
      ],
    });
    const before = MeetingDetailSchema.parse((await api(token, 'GET', `/api/v1/meetings/${created.id}`)).body);
    expect(before.participants).toEqual(['Ada']); // the same person, typed and named: once
    const second = before.speakers[1]!;
    await api(token, 'PATCH', `/api/v1/meetings/${created.id}/speakers/${second.id}`, { displayName: 'Grace Hopper' });
    expect(MeetingDetailSchema.parse((await api(token, 'GET', `/api/v1/meetings/${created.id}`)).body).participants).toEqual(['Ada', 'Grace Hopper']);
    expect(titles(await list(token, '?participant=grace%20hopper'))).toEqual(['Pairing']);
    await api(token, 'PATCH', `/api/v1/meetings/${created.id}/speakers/${second.id}`, { displayName: 'Grace B. Hopper' });
    expect(MeetingDetailSchema.parse((await api(token, 'GET', `/api/v1/meetings/${created.id}`)).body).participants).toEqual(['Ada', 'Grace B. Hopper']);
    expect((await list(token, '?participant=grace%20hopper')).items).toEqual([]);
    await api(token, 'PATCH', `/api/v1/meetings/${created.id}`, { participants: ['Linus'] });
    expect(MeetingDetailSchema.parse((await api(token, 'GET', `/api/v1/meetings/${created.id}`)).body).participants).toEqual([
      'Linus',
      'ada',
      'Grace B. Hopper',
    ]);
  });

  it('deletes a meeting for good', async () => {
    const token = await newUser();
    const target = (await list(token)).items[0]!;
    expect(await api(token, 'DELETE', `/api/v1/meetings/${target.id}`)).toEqual({ status: 200, body: { deleted: 1 } });
    expect((await api(token, 'GET', `/api/v1/meetings/${target.id}`)).status).toBe(404);
    expect((await list(token, '?q=standup')).total).toBe(0);
  });
});

describe('storage used', () => {
  it('counts a recording over 2 GiB at its full size', async () => {
    const { token, userId } = await signUpUser(t.app, 'big-recording');
    const stats = async () => ((await api(token, 'GET', '/api/v1/meetings/stats')).body as { storageBytes: number }).storageBytes;
    const before = await stats();
    const { body } = await api(token, 'POST', '/api/v1/meetings', { title: 'All-day workshop', source: 'upload' });
    const { id } = body as { id: string };
    const bytes = 3 * 1024 ** 3;
    const key = t.deps.blobs.newKey('webm');
    // The blob store's row of the stored file (writing 3 GiB for real would only slow the test down).
    await t.deps.database.db.insertInto('blobs').values({ key, owner_id: userId, kind: 'recording', bytes, created_at: new Date().toISOString() }).execute();
    expect(await t.deps.services.meetings.recordingStored(id, { key, mime: 'audio/webm', bytes, durationSeconds: 8 * 3600 })).toBe(true);
    expect((await stats()) - before).toBe(bytes);
  });
});

describe('the public demo meeting', () => {
  it('is readable without signing in and matches the meeting contract', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/demo/meeting' });
    expect(response.statusCode).toBe(200);
    const demo = MeetingDetailSchema.parse(response.json());
    expect(demo.title).toBe('Weekly Team Standup');
    expect(demo.segments.every((s) => demo.speakers.some((sp) => sp.id === s.speakerId))).toBe(true);
    expect(MeetingDetailSchema.parse((await t.app.inject({ method: 'GET', url: '/api/v1/demo/meeting' })).json()).id).toBe(demo.id);
  });
});

describe('authorization', () => {
  it('a second user reaches nothing of the first, by any id', async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const meeting = (await list(owner)).items[0]!;
    const detail = (await api(owner, 'GET', `/api/v1/meetings/${meeting.id}`)).body as MeetingDetail;
    const seg = detail.segments[0]!.id;
    const spk = detail.speakers[0]!.id;
    const attempts = [
      await api(stranger, 'GET', `/api/v1/meetings/${meeting.id}`),
      await api(stranger, 'PATCH', `/api/v1/meetings/${meeting.id}`, { title: 'Mine now' }),
      await api(stranger, 'PATCH', `/api/v1/meetings/${meeting.id}/segments/${seg}`, { text: 'hacked' }),
      await api(stranger, 'PATCH', `/api/v1/meetings/${meeting.id}/speakers/${spk}`, { displayName: 'hacked' }),
      await api(stranger, 'DELETE', `/api/v1/meetings/${meeting.id}`),
    ];
    expect(attempts.map((a) => a.status)).toEqual([404, 404, 404, 404, 404]);
    // The stranger's own meeting id with the owner's segment id must not reach it either.
    const own = (await list(stranger)).items[0]!;
    expect((await api(stranger, 'PATCH', `/api/v1/meetings/${own.id}/segments/${seg}`, { text: 'hacked' })).status).toBe(404);
    expect((await list(stranger, `?q=${encodeURIComponent('hacked')}`)).total).toBe(0);
    const after = (await api(owner, 'GET', `/api/v1/meetings/${meeting.id}`)).body as MeetingDetail;
    expect(after.title).toBe(meeting.title);
    expect(after.segments[0]?.text).toBe(detail.segments[0]?.text);
    expect(after.speakers[0]?.displayName).toBe(detail.speakers[0]?.displayName);
  });

  it('refuses requests without a valid token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/meetings' });
    expect(response.statusCode).toBe(401);
    const forged = await t.app.inject({ method: 'GET', url: '/api/v1/meetings', headers: { authorization: 'Bearer abc.def.ghi' } });
    expect(forged.statusCode).toBe(401);
  });
});
