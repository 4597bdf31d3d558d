import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AnalyticsResponseSchema,
  InsightsResponseSchema,
  UNNAMED_SPEAKERS,
  type AnalyticsResponse,
  type InsightsResponse,
} from '#shared/contracts/insights.ts';
import { MeetingDetailSchema, MeetingStatsSchema, type MeetingDetail } from '#shared/contracts/meetings.ts';
import { replaceTranscript } from '#server/features/meetings/meetings.repository.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' } });
});
afterAll(() => t.close());

const newUser = async () => (await signUpUser(t.app, 'insights')).token;

const get = async (token: string, url: string) => {
  const response = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  return { status: response.statusCode, body: response.json() as unknown };
};
const insights = async (token: string) => InsightsResponseSchema.parse((await get(token, '/api/v1/insights')).body) as InsightsResponse;
const analytics = async (token: string, query = '') => AnalyticsResponseSchema.parse((await get(token, `/api/v1/analytics${query}`)).body) as AnalyticsResponse;

/** A meeting of the caller's own, with a stored transcript as a finished transcription would leave it. */
async function meetingWithTranscript(token: string, title: string, emotionalAnalysis: boolean) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/v1/meetings',
    headers: { authorization: `Bearer ${token}` },
    payload: { title, options: { emotionalAnalysis } },
  });
  const meeting = MeetingDetailSchema.parse(created.json()) as MeetingDetail;
  const segmentIds = await replaceTranscript(t.deps.database.db, meeting.id, {
    speakers: [{ label: 'Speaker 1' }, { label: 'Speaker 2', displayName: 'Priya Natarajan' }],
    segments: [
      { speaker: 0, startMs: 0, endMs: 4000, text: 'This launch was a wonderful success, great job.' },
      { speaker: 1, startMs: 4000, endMs: 10_000, text: 'Thanks. The only problem was the terrible outage on Monday.' },
    ],
  });
  await t.deps.services.notes.storeSampleNotes(
    meeting.id,
    [
      {
        kind: 'action_item',
        text: 'Write the outage report',
        assignee: 'Priya Natarajan',
        dueText: 'Thursday',
        segmentIds: [segmentIds[1]!],
        startMs: 4000,
        suggested: false,
      },
    ],
    1,
  );
  return meeting;
}

describe('GET /api/v1/insights', () => {
  it('builds the four tabs from a new account’s sample meetings', async () => {
    const token = await newUser();
    const result = await insights(token);
    expect(result.meetings).toBe(6);

    // Topics: "Mobile app" comes up in two sample meetings, so it leads.
    expect(result.topics[0]).toMatchObject({ name: 'Mobile app', meetings: 2 });
    expect(result.topics[0]?.lastDiscussed.title).toBe('Product Roadmap Review');
    expect(result.topics.map((topic) => topic.name)).toContain('API migration');

    // Sentiment: every sample meeting has emotional analysis on; each turn is counted once.
    expect(result.sentiment.analysedMeetings).toBe(6);
    const turns = result.sentiment.overall.positive + result.sentiment.overall.neutral + result.sentiment.overall.negative;
    expect(turns).toBe(result.participation.speakers.reduce((n, s) => n + s.turns, 0));
    expect(result.sentiment.overall.positive).toBeGreaterThan(0);
    expect(result.sentiment.overall.negative).toBeGreaterThan(0);
    expect(result.sentiment.byMeeting.at(-1)?.meeting.title).toBe('Weekly Team Standup'); // oldest first, newest last

    // Participation: named people, shares that add up to the whole.
    const names = result.participation.speakers.map((s) => s.speaker);
    expect(names).toContain('Sarah Miller');
    expect(names).not.toContain(UNNAMED_SPEAKERS);
    const share = result.participation.speakers.reduce((n, s) => n + s.share, 0);
    expect(share).toBeGreaterThan(0.95);
    expect(share).toBeLessThanOrEqual(1.01);

    // Action items: assignee team, due label and source meeting, newest meeting first.
    expect(result.actionItems[0]).toMatchObject({
      text: 'Get production credentials for the new API gateway',
      assignee: 'Platform Team',
      dueText: 'Today',
      status: 'open',
      meeting: { title: 'Weekly Team Standup', isSample: true },
    });
    // "Today" read on the meeting's own calendar (the owner's zone, Pacific by default).
    const standup = result.actionItems[0]!;
    expect(standup.due).toBe(new Date(standup.meeting.startedAt).toLocaleDateString('en-CA', { timeZone: 'America/Los_Angeles' }));
  });

  it('counts sentiment only where emotional analysis is on, and groups unnamed speakers', async () => {
    const token = await newUser();
    await t.app.inject({ method: 'DELETE', url: '/api/v1/meetings/samples', headers: { authorization: `Bearer ${token}` } });
    expect((await insights(token)).meetings).toBe(0);

    await meetingWithTranscript(token, 'Private retro', false);
    let result = await insights(token);
    expect(result.sentiment.analysedMeetings).toBe(0);
    expect(result.participation.speakers.map((s) => [s.speaker, s.talkSeconds])).toEqual([
      ['Priya Natarajan', 6],
      [UNNAMED_SPEAKERS, 4],
    ]);

    const launch = await meetingWithTranscript(token, 'Launch review', true);
    result = await insights(token);
    expect(result.sentiment.analysedMeetings).toBe(1);
    expect(result.sentiment.byMeeting[0]).toMatchObject({ meeting: { id: launch.id }, turns: { positive: 1, negative: 1, neutral: 0 } });
    expect(result.actionItems.map((a) => a.meeting.title)).toEqual(['Launch review', 'Private retro']);

    // Correcting a line re-scores it.
    const detail = MeetingDetailSchema.parse((await get(token, `/api/v1/meetings/${launch.id}`)).body) as MeetingDetail;
    const line = detail.segments[1]!;
    await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/meetings/${launch.id}/segments/${line.id}`,
      headers: { authorization: `Bearer ${token}` },
      payload: { text: 'The release is on Monday at ten.' },
    });
    result = await insights(token);
    expect(result.sentiment.byMeeting[0]?.turns).toEqual({ positive: 1, negative: 0, neutral: 1 });
  });

  it('builds Topics and the dashboard’s insight counts from a real meeting’s notes, not only the samples’', async () => {
    const person = await signUpUser(t.app, 'insights-real');
    const auth = { authorization: `Bearer ${person.token}` };
    await t.app.inject({ method: 'DELETE', url: '/api/v1/meetings/samples', headers: auth });
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/meetings', headers: auth, payload: { title: 'Warehouse planning' } });
    const { id } = MeetingDetailSchema.parse(created.json());
    // As a finished transcription leaves it; then the local notes engine writes its notes.
    const { meetings, notes } = t.deps.services;
    await meetings.recordingStored(id, { key: t.deps.blobs.newKey('webm'), mime: 'audio/webm', bytes: 1, durationSeconds: 60 });
    const lines = [
      'Today we plan the warehouse move and the new shelving for the warehouse.',
      'I will order the warehouse shelving by Friday.',
      'We decided to move the warehouse to the north site in March.',
      'The warehouse move needs a forklift, so the warehouse team rents one.',
    ];
    await meetings.completeTranscription(id, {
      speakers: [{ label: 'Speaker 1', displayName: 'Dana Whitfield' }, { label: 'Speaker 2' }],
      segments: lines.map((text, i) => ({ speaker: i % 2, startMs: i * 10_000, endMs: i * 10_000 + 9_000, text })),
    });
    await notes.transcriptReady(id, person.userId);
    await t.app.transcription.idle();

    const detail = MeetingDetailSchema.parse((await get(person.token, `/api/v1/meetings/${id}`)).body);
    expect(detail.notes.status).toBe('ready');
    const written = (kind: string) => detail.insights.filter((i) => i.kind === kind && i.status !== 'dismissed').length;
    expect(written('topic')).toBeGreaterThan(0);

    const result = await insights(person.token);
    expect(result.topics.length).toBeGreaterThan(0);
    expect(result.topics.every((topic) => topic.lastDiscussed.id === id && !topic.lastDiscussed.isSample)).toBe(true);
    const stats = MeetingStatsSchema.parse((await get(person.token, '/api/v1/meetings/stats')).body);
    expect(stats.insights).toEqual({
      actionItems: written('action_item'),
      decisions: written('decision'),
      keyPoints: written('key_point'),
      topics: written('topic'),
    });
    expect(stats.insights.actionItems + stats.insights.decisions).toBeGreaterThan(0);
  });

  it('lists every speaker’s participation, however many (it stopped at 12)', async () => {
    const token = await newUser();
    await t.app.inject({ method: 'DELETE', url: '/api/v1/meetings/samples', headers: { authorization: `Bearer ${token}` } });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/meetings',
      headers: { authorization: `Bearer ${token}` },
      payload: { title: 'All hands' },
    });
    const meeting = MeetingDetailSchema.parse(created.json()) as MeetingDetail;
    const names = Array.from({ length: 15 }, (_, i) => `Person ${String(i + 1).padStart(2, '0')}`);
    await replaceTranscript(t.deps.database.db, meeting.id, {
      speakers: names.map((displayName, i) => ({ label: `Speaker ${i + 1}`, displayName })),
      // Person 01 speaks longest, Person 15 shortest.
      segments: names.map((_, i) => ({ speaker: i, startMs: i * 100_000, endMs: i * 100_000 + (15 - i) * 1000, text: `Line ${i + 1}.` })),
    });
    const { participation } = await insights(token);
    expect(participation.speakers.map((p) => p.speaker)).toEqual(names);
    expect(participation.speakers.at(-1)).toMatchObject({ talkSeconds: 1, turns: 1, meetings: 1 });
    // Sentiment by speaker stopped at 12 as well: every speaker's tone is there (one turn each, in no set order).
    const { sentiment } = await insights(token);
    expect(sentiment.bySpeaker.map((s) => s.speaker).sort()).toEqual(names);
  });

  it('shows a person nothing of anyone else’s meetings', async () => {
    const owner = await newUser();
    await meetingWithTranscript(owner, 'Board prep', true);
    const stranger = await newUser();
    await t.app.inject({ method: 'DELETE', url: '/api/v1/meetings/samples', headers: { authorization: `Bearer ${stranger}` } });
    const result = await insights(stranger);
    expect(result).toEqual({
      meetings: 0,
      topics: [],
      sentiment: { analysedMeetings: 0, overall: { positive: 0, neutral: 0, negative: 0 }, byMeeting: [], bySpeaker: [] },
      participation: { totalTalkSeconds: 0, speakers: [] },
      actionItems: [],
    });
    expect((await analytics(stranger)).totals.meetings).toBe(0);
  });

  it('needs a signed-in caller', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/insights' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/analytics' })).statusCode).toBe(401);
  });
});

describe('GET /api/v1/analytics', () => {
  it('charts the person’s own meeting time, counts and talk time by week, every week present; the samples stay out', async () => {
    const token = await newUser();
    // A new account holds only the six samples, long meetings with short transcripts: they stay out.
    const samplesOnly = await analytics(token, '?weeks=4&tzOffset=-60');
    expect(samplesOnly.weeks).toHaveLength(4);
    for (const week of samplesOnly.weeks) expect(new Date(`${week.weekStart}T00:00:00Z`).getUTCDay()).toBe(1); // Mondays
    expect(samplesOnly.totals).toEqual({ meetings: 0, meetingMinutes: 0, talkMinutes: 0, averageMeetingMinutes: 0 });
    expect(samplesOnly.weeks.every((w) => w.meetings === 0)).toBe(true);

    await meetingWithTranscript(token, 'Launch review', false); // 10 s of speech, started now
    const result = await analytics(token, '?weeks=4&tzOffset=-60');
    expect(result.totals.meetings).toBe(1);
    expect(result.totals.talkMinutes).toBe(0.2);
    expect(result.weeks.at(-1)!.meetings).toBe(1);
    expect(result.weeks.at(-1)!.weekStart >= result.weeks[0]!.weekStart).toBe(true);
  });

  it('rejects a range it does not offer', async () => {
    const { status, body } = await get(await newUser(), '/api/v1/analytics?weeks=5');
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toContain('weeks must be 4, 12, 26 or 52');
  });
});
