import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MeetingDetailSchema, type MeetingDetail } from '#shared/contracts/meetings.ts';
import {
  ActionItemsResponseSchema,
  DecisionSchema,
  DecisionsResponseSchema,
  TrackedActionItemSchema,
  type ActionItemsResponse,
} from '#shared/contracts/tracker.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';

// The action-item tracker and the decision register on the real server: meetings are transcribed,
// the local notes engine writes their notes, and the step after it finds later mentions of open
// items and later decisions on the same subject. The clock is fixed: 05:00 UTC on Wednesday
// 25 November 2026 is still Tuesday the 24th in Los Angeles, a new account's time zone.

const ENV = { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' };
const NOW = new Date('2026-11-25T05:00:00.000Z');

type Caller = { token: string; userId: string };
type Line = readonly [speaker: number, text: string];

/** Tuesday 17 November: two items with due dates (Friday the 20th, Tuesday the 24th), one without, two decisions. */
const PLANNING: Line[] = [
  [0, 'Welcome everyone. Today we settle the budget for the spring campaign and who does what.'],
  [1, 'I will send the revised budget to finance by Friday.'],
  [0, 'Maria, can you book the photographer for next Tuesday?'],
  [2, 'Sure, that works for me.'],
  [0, "We'll order the new batteries for the field recorders."],
  [0, "Let's go with the blue theme for the campaign visuals."],
  [1, 'We decided to use Postgres for the analytics database.'],
];
/** Thursday 19 November: talks about the budget and the photographer again, and changes the theme. */
const CHECK_IN: Line[] = [
  [0, 'Quick check-in on the spring campaign.'],
  [0, 'Omar, did you send the revised budget to finance yet?'],
  [1, 'Not yet, finance asked for two more numbers.'],
  [2, 'The photographer is booked, we shoot on Tuesday morning.'],
  [0, 'We decided to switch the campaign visuals to a green theme.'],
  [1, 'The office plants need watering.'],
];

async function call(t: TestApp, who: Caller, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: { authorization: `Bearer ${who.token}` }, ...(payload ? { payload } : {}) });
}

/** A new account without its sample meetings, so lists hold only what a test made. */
async function newPerson(t: TestApp, prefix: string): Promise<Caller> {
  const person = await signUpUser(t.app, prefix);
  expect((await call(t, person, 'DELETE', '/api/v1/meetings/samples')).statusCode).toBe(200);
  return person;
}

const transcriptOf = (lines: Line[]) => ({
  speakers: [
    { label: 'Speaker 1', displayName: 'Dana Whitfield' },
    { label: 'Speaker 2', displayName: 'Omar Haddad' },
    { label: 'Speaker 3', displayName: 'Maria Lopez' },
  ],
  segments: lines.map(([speaker, text], i) => ({ speaker, startMs: i * 10_000, endMs: i * 10_000 + 9_000, text })),
});

/** A meeting as a finished transcription leaves it, with its notes written (and the step after them done). */
async function meetingWithNotes(t: TestApp, who: Caller, title: string, startedAt: string, lines: Line[]): Promise<MeetingDetail> {
  const created = await call(t, who, 'POST', '/api/v1/meetings', { title, startedAt });
  const { id } = created.json() as { id: string };
  const { meetings } = t.deps.services;
  // A key the blob store accepts, so deleting the meeting removes its (absent) audio without complaint.
  await meetings.recordingStored(id, { key: t.deps.blobs.newKey('webm'), mime: 'audio/webm', bytes: 1, durationSeconds: lines.length * 10 });
  await meetings.completeTranscription(id, transcriptOf(lines));
  // Its transcript.ready event hands it to the notes.
  await t.app.transcription.idle();
  return meetingOf(t, who, id);
}

const meetingOf = async (t: TestApp, who: Caller, id: string) => MeetingDetailSchema.parse((await call(t, who, 'GET', `/api/v1/meetings/${id}`)).json());

async function tracker(t: TestApp, who: Caller, query = ''): Promise<ActionItemsResponse> {
  const response = await call(t, who, 'GET', `/api/v1/action-items${query}`);
  expect(response.statusCode).toBe(200);
  return ActionItemsResponseSchema.parse(response.json());
}

async function register(t: TestApp, who: Caller, query = '') {
  const response = await call(t, who, 'GET', `/api/v1/decisions${query}`);
  expect(response.statusCode).toBe(200);
  return DecisionsResponseSchema.parse(response.json());
}

const segmentAt = (meeting: MeetingDetail, index: number) => meeting.segments[index]!;

describe('the action-item tracker and the decision register', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: ENV, deps: { clock: { now: () => NOW } } });
  });
  afterAll(() => t.close());

  it('GET /action-items counts and filters by status (overdue on the person’s date), assignee (unassigned too) and meeting; ticking done moves an item', async () => {
    const owner = await newPerson(t, 'tracker');
    const planning = await meetingWithNotes(t, owner, 'Spring campaign', '2026-11-17T15:00:00.000Z', PLANNING);
    const later = await meetingWithNotes(t, owner, 'Supplier review', '2026-11-18T15:00:00.000Z', [
      [1, 'I need to check the supplier prices.'],
      [0, 'Good, thanks.'],
    ]);

    const open = await tracker(t, owner);
    expect(open).toMatchObject({ total: 4, page: 1, pageSize: 25, counts: { open: 4, done: 0, dismissed: 0, overdue: 1 } });
    // Newest meeting first, then in the order of the notes.
    expect(open.items.map((i) => [i.text, i.assignee, i.due, i.overdue])).toEqual([
      ['Check the supplier prices', 'Omar Haddad', null, false],
      ['Send the revised budget to finance', 'Omar Haddad', '2026-11-20', true],
      // Due on the 24th: today in Los Angeles, so not overdue (in UTC it would be).
      ['Book the photographer', 'Maria Lopez', '2026-11-24', false],
      ['Order the new batteries for the field recorders', null, null, false],
    ]);
    const budget = open.items[1]!;
    expect(budget).toMatchObject({
      dueText: 'by Friday',
      status: 'open',
      mentions: [],
      meeting: { id: planning.id, title: 'Spring campaign', isSample: false },
    });
    expect(budget.segmentIds).toEqual([segmentAt(planning, 1).id]);
    expect(budget.startMs).toBe(10_000);
    expect(open.assignees).toEqual(['Maria Lopez', 'Omar Haddad']);
    expect(open.meetings.map((m) => m.id)).toEqual([later.id, planning.id]);

    expect((await tracker(t, owner, '?status=overdue')).items.map((i) => i.id)).toEqual([budget.id]);
    expect((await tracker(t, owner, '?assignee=Omar%20Haddad')).items.map((i) => i.text)).toEqual([
      'Check the supplier prices',
      'Send the revised budget to finance',
    ]);
    expect((await tracker(t, owner, '?assignee=unassigned')).items.map((i) => i.text)).toEqual(['Order the new batteries for the field recorders']);
    const ofPlanning = await tracker(t, owner, `?meetingId=${planning.id}&pageSize=2`);
    expect(ofPlanning).toMatchObject({ total: 3, pageSize: 2, counts: { open: 3, overdue: 1 } });
    expect(ofPlanning.items.map((i) => i.meeting.id)).toEqual([planning.id, planning.id]);
    expect((await tracker(t, owner, `?meetingId=${planning.id}&pageSize=2&page=2`)).items.map((i) => i.text)).toEqual([
      'Order the new batteries for the field recorders',
    ]);

    // Ticked done and dismissed from the tracker, through the meeting's item endpoint.
    const patch = (itemId: string, meetingId: string, body: object) => call(t, owner, 'PATCH', `/api/v1/meetings/${meetingId}/notes/items/${itemId}`, body);
    expect((await patch(budget.id, budget.meeting.id, { status: 'done' })).statusCode).toBe(200);
    expect((await patch(open.items[3]!.id, planning.id, { status: 'dismissed' })).statusCode).toBe(200);
    const after = await tracker(t, owner);
    expect(after.counts).toEqual({ open: 2, done: 1, dismissed: 1, overdue: 0 });
    expect((await tracker(t, owner, '?status=done')).items.map((i) => [i.id, i.status, i.overdue])).toEqual([[budget.id, 'done', false]]);
    expect((await tracker(t, owner, '?status=dismissed')).items).toHaveLength(1);
    expect((await tracker(t, owner, '?status=all')).total).toBe(4);
    expect((await call(t, owner, 'GET', '/api/v1/action-items?status=late')).statusCode).toBe(400);
  });

  it('a later meeting that talks about an open item again links it to that moment; done ticks it, slipped keeps it open', async () => {
    const owner = await newPerson(t, 'follow-ups');
    const planning = await meetingWithNotes(t, owner, 'Spring campaign', '2026-11-17T15:00:00.000Z', PLANNING);
    const checkIn = await meetingWithNotes(t, owner, 'Campaign check-in', '2026-11-19T15:00:00.000Z', CHECK_IN);

    const { items } = await tracker(t, owner, `?meetingId=${planning.id}`);
    const [budget, photographer, batteries] = items;
    expect(budget!.mentions).toEqual([
      {
        id: expect.any(String),
        meeting: expect.objectContaining({ id: checkIn.id, title: 'Campaign check-in' }),
        segmentId: segmentAt(checkIn, 1).id,
        startMs: 10_000,
        text: 'Omar, did you send the revised budget to finance yet?',
        resolution: null,
      },
    ]);
    expect(photographer!.mentions.map((m) => [m.segmentId, m.text])).toEqual([
      [segmentAt(checkIn, 3).id, 'The photographer is booked, we shoot on Tuesday morning.'],
    ]);
    expect(batteries!.mentions).toEqual([]);
    // An earlier meeting never mentions a later one's items.
    expect((await tracker(t, owner, `?meetingId=${checkIn.id}`)).items.every((i) => i.mentions.length === 0)).toBe(true);

    const answer = (itemId: string, mentionId: string, resolution: string) =>
      call(t, owner, 'POST', `/api/v1/action-items/${itemId}/mentions/${mentionId}`, { resolution });
    const slipped = await answer(budget!.id, budget!.mentions[0]!.id, 'slipped');
    expect(slipped.statusCode).toBe(200);
    expect(TrackedActionItemSchema.parse(slipped.json())).toMatchObject({
      id: budget!.id,
      status: 'open',
      overdue: true,
      mentions: [{ resolution: 'slipped' }],
    });
    const done = TrackedActionItemSchema.parse((await answer(photographer!.id, photographer!.mentions[0]!.id, 'done')).json());
    expect(done).toMatchObject({ status: 'done', overdue: false, mentions: [{ resolution: 'done' }] });
    const notes = (await meetingOf(t, owner, planning.id)).insights;
    expect(notes.find((i) => i.id === photographer!.id)).toMatchObject({ status: 'done', suggested: false });
    expect(notes.find((i) => i.id === budget!.id)).toMatchObject({ status: 'open', suggested: false });
    expect((await tracker(t, owner)).counts).toMatchObject({ open: 2, done: 1, overdue: 1 });

    expect((await answer(budget!.id, photographer!.mentions[0]!.id, 'done')).statusCode).toBe(404); // not this item's mention
    expect((await answer(budget!.id, budget!.mentions[0]!.id, 'maybe')).statusCode).toBe(400);

    // Notes written again for the later meeting keep its mentions and their answers.
    await call(t, owner, 'POST', `/api/v1/meetings/${checkIn.id}/notes`);
    await t.app.transcription.idle();
    const again = await tracker(t, owner, `?meetingId=${planning.id}&status=all`);
    expect(again.items[0]!.mentions).toEqual([expect.objectContaining({ id: budget!.mentions[0]!.id, resolution: 'slipped' })]);
  });

  it('another person’s items, mentions, decisions and links answer 404, never show in lists, and their meetings mention nothing of the owner’s', async () => {
    const owner = await newPerson(t, 'owner');
    const stranger = await newPerson(t, 'stranger');
    const planning = await meetingWithNotes(t, owner, 'Spring campaign', '2026-11-17T15:00:00.000Z', PLANNING);
    // The stranger's later meeting says the very same words: the owner's items are not theirs to follow up.
    await meetingWithNotes(t, stranger, 'Campaign check-in', '2026-11-19T15:00:00.000Z', CHECK_IN);
    expect((await tracker(t, owner)).items.every((i) => i.mentions.length === 0)).toBe(true);
    expect((await register(t, owner)).items.every((d) => d.suggestedSupersedes.length === 0 && d.supersededBy.length === 0)).toBe(true);

    const checkIn = await meetingWithNotes(t, owner, 'Campaign check-in', '2026-11-19T15:00:00.000Z', CHECK_IN);
    const item = (await tracker(t, owner, `?meetingId=${planning.id}`)).items[0]!;
    const mention = item.mentions[0]!;
    const link = (await register(t, owner, `?meetingId=${checkIn.id}`)).items[0]!.suggestedSupersedes[0]!;

    const theirs = await tracker(t, stranger, '?status=all');
    expect(theirs.items.map((i) => i.meeting.id)).not.toContain(planning.id);
    expect(theirs.assignees).toEqual([]);
    expect(theirs.meetings).toEqual([]);
    expect((await tracker(t, stranger, `?meetingId=${planning.id}&status=all`)).total).toBe(0);
    expect((await register(t, stranger, `?meetingId=${planning.id}`)).total).toBe(0);
    expect((await register(t, stranger)).items.map((d) => d.meeting.id)).not.toContain(checkIn.id);
    expect((await call(t, stranger, 'POST', `/api/v1/action-items/${item.id}/mentions/${mention.id}`, { resolution: 'done' })).statusCode).toBe(404);
    expect((await call(t, stranger, 'PATCH', `/api/v1/decisions/links/${link.linkId}`, { status: 'confirmed' })).statusCode).toBe(404);
    expect((await tracker(t, owner, `?meetingId=${planning.id}`)).items[0]).toMatchObject({ status: 'open', mentions: [{ resolution: null }] });
    expect((await register(t, owner, `?meetingId=${checkIn.id}`)).items[0]!.suggestedSupersedes).toHaveLength(1);
  });

  it('GET /decisions lists every decision newest meeting first, searches words in the decision or its meeting’s title, and leaves dismissed ones out', async () => {
    const owner = await newPerson(t, 'register');
    const planning = await meetingWithNotes(t, owner, 'Spring campaign', '2026-11-17T15:00:00.000Z', PLANNING);
    const checkIn = await meetingWithNotes(t, owner, 'Campaign check-in', '2026-11-19T15:00:00.000Z', CHECK_IN);

    const all = await register(t, owner);
    expect(all.total).toBe(3);
    expect(all.items.map((d) => [d.text, d.meeting.id])).toEqual([
      ['We decided to switch the campaign visuals to a green theme.', checkIn.id],
      ["Let's go with the blue theme for the campaign visuals.", planning.id],
      ['We decided to use Postgres for the analytics database.', planning.id],
    ]);
    const postgres = all.items[2]!;
    expect(postgres.segmentIds).toEqual([segmentAt(planning, 6).id]);
    expect(postgres.startMs).toBe(60_000);

    const texts = async (query: string) => (await register(t, owner, query)).items.map((d) => d.text);
    expect(await texts('?q=ANALYTICS%20postgres')).toEqual([postgres.text]);
    // "spring" is in the planning meeting's title, "blue" in one of its decisions.
    expect(await texts('?q=spring%20blue')).toEqual(["Let's go with the blue theme for the campaign visuals."]);
    expect(await texts('?q=check-in')).toEqual(['We decided to switch the campaign visuals to a green theme.']);
    expect(await texts('?q=blue%20green')).toEqual([]);
    expect(await texts('?q=%25')).toEqual([]); // "%" is a character, not a wildcard
    expect(await texts(`?meetingId=${planning.id}&pageSize=1&page=2`)).toEqual([postgres.text]);

    const dismissed = await call(t, owner, 'PATCH', `/api/v1/meetings/${planning.id}/notes/items/${postgres.id}`, { status: 'dismissed' });
    expect(dismissed.statusCode).toBe(200);
    expect((await register(t, owner)).items.map((d) => d.id)).not.toContain(postgres.id);
    expect(await texts('?q=postgres')).toEqual([]);
    // Nor is a dismissed decision offered as superseded by a later one on its subject.
    const migration = await meetingWithNotes(t, owner, 'Data platform', '2026-11-20T15:00:00.000Z', [
      [1, 'We decided to move the analytics database from Postgres to ClickHouse.'],
    ]);
    expect((await register(t, owner, `?meetingId=${migration.id}`)).items).toEqual([
      expect.objectContaining({ text: 'We decided to move the analytics database from Postgres to ClickHouse.', suggestedSupersedes: [], supersedes: [] }),
    ]);
  });

  it('a later decision on the same subject is offered as superseding the earlier one; confirmed it links both ways, rejected it is not offered again', async () => {
    const owner = await newPerson(t, 'supersede');
    const planning = await meetingWithNotes(t, owner, 'Spring campaign', '2026-11-17T15:00:00.000Z', PLANNING);
    const checkIn = await meetingWithNotes(t, owner, 'Campaign check-in', '2026-11-19T15:00:00.000Z', CHECK_IN);

    const [green, blue, postgres] = (await register(t, owner)).items;
    expect(green!.suggestedSupersedes).toEqual([
      { linkId: expect.any(String), decision: { id: blue!.id, text: blue!.text, meeting: expect.objectContaining({ id: planning.id }), startMs: 50_000 } },
    ]);
    expect(blue!.supersededBy).toEqual([]); // only once confirmed
    expect(postgres!.suggestedSupersedes).toEqual([]);

    const linkId = green!.suggestedSupersedes[0]!.linkId;
    const confirmed = await call(t, owner, 'PATCH', `/api/v1/decisions/links/${linkId}`, { status: 'confirmed' });
    expect(confirmed.statusCode).toBe(200);
    expect(DecisionSchema.parse(confirmed.json())).toMatchObject({
      id: green!.id,
      suggestedSupersedes: [],
      supersedes: [{ linkId, decision: { id: blue!.id } }],
    });
    const [greenAfter, blueAfter] = (await register(t, owner)).items;
    expect(greenAfter!.supersedes.map((l) => l.decision.id)).toEqual([blue!.id]);
    expect(blueAfter!.supersededBy).toEqual([
      { linkId, decision: expect.objectContaining({ id: green!.id, meeting: expect.objectContaining({ id: checkIn.id }) }) },
    ]);

    // A third change supersedes the latest standing decision (green), not the one already replaced.
    const third = await meetingWithNotes(t, owner, 'Campaign review', '2026-11-23T15:00:00.000Z', [
      [0, 'We decided to switch the campaign visuals to a red theme.'],
    ]);
    const [red] = (await register(t, owner, `?meetingId=${third.id}`)).items;
    expect(red!.suggestedSupersedes.map((l) => l.decision.id)).toEqual([green!.id]);
    const rejectedLink = red!.suggestedSupersedes[0]!.linkId;
    const rejected = DecisionSchema.parse((await call(t, owner, 'PATCH', `/api/v1/decisions/links/${rejectedLink}`, { status: 'rejected' })).json());
    expect(rejected).toMatchObject({ id: red!.id, suggestedSupersedes: [], supersedes: [] });
    expect((await call(t, owner, 'PATCH', `/api/v1/decisions/links/${rejectedLink}`, { status: 'suggested' })).statusCode).toBe(400);

    // Notes written again keep the answered decision and its answer: nothing is asked again.
    await call(t, owner, 'POST', `/api/v1/meetings/${third.id}/notes`);
    await t.app.transcription.idle();
    expect((await register(t, owner, `?meetingId=${third.id}`)).items).toEqual([
      expect.objectContaining({ id: red!.id, suggestedSupersedes: [], supersedes: [] }),
    ]);
    const rows = await t.deps.database.db.selectFrom('decision_links').select(['id', 'status']).where('later_id', '=', red!.id).execute();
    expect(rows).toEqual([{ id: rejectedLink, status: 'rejected' }]);
  });

  it('a real meeting neither follows up the sample meetings’ items nor supersedes their decisions', async () => {
    const person = await signUpUser(t.app, 'samples');
    const samples = await tracker(t, person);
    expect(samples.items.map((i) => i.text)).toContain('Send the user list for the import');
    const meeting = await meetingWithNotes(t, person, 'Acme onboarding', new Date().toISOString(), [
      [0, 'Did Acme send the user list for the import?'],
      [1, 'We decided the analytics dashboards move to Q1.'],
    ]);
    expect((await tracker(t, person, '?status=all')).items.every((i) => i.mentions.length === 0)).toBe(true);
    const [decision] = (await register(t, person, `?meetingId=${meeting.id}`)).items;
    expect(decision).toMatchObject({ text: 'We decided the analytics dashboards move to Q1.', suggestedSupersedes: [] });
  });

  it('a meeting transcribed again loses its mentions (found again from the new transcript), and a deleted meeting takes its mentions and links with it', async () => {
    const owner = await newPerson(t, 'cascade');
    const planning = await meetingWithNotes(t, owner, 'Spring campaign', '2026-11-17T15:00:00.000Z', PLANNING);
    const checkIn = await meetingWithNotes(t, owner, 'Campaign check-in', '2026-11-19T15:00:00.000Z', CHECK_IN);
    const { db } = t.deps.database;
    const mentionsIn = (meetingId: string) => db.selectFrom('action_item_mentions').select(['id', 'segment_id']).where('meeting_id', '=', meetingId).execute();
    const before = await mentionsIn(checkIn.id);
    expect(before).toHaveLength(2);

    // Transcribed again (as a retried transcription stores it): the new transcript only talks about the budget.
    await db.updateTable('meetings').set({ status: 'processing' }).where('id', '=', checkIn.id).execute();
    await t.deps.services.meetings.completeTranscription(checkIn.id, transcriptOf([CHECK_IN[1]!, CHECK_IN[2]!]));
    expect(await mentionsIn(checkIn.id)).toEqual([]);
    await t.app.transcription.idle();
    const retranscribed = await meetingOf(t, owner, checkIn.id);
    expect((await mentionsIn(checkIn.id)).map((m) => m.segment_id)).toEqual([segmentAt(retranscribed, 0).id]);

    const green = await meetingWithNotes(t, owner, 'Theme change', '2026-11-20T15:00:00.000Z', [
      [0, 'We decided to switch the campaign visuals to a green theme.'],
    ]);
    const [link] = (await register(t, owner, `?meetingId=${green.id}`)).items[0]!.suggestedSupersedes;
    expect(link?.decision.meeting.id).toBe(planning.id);
    for (const id of [checkIn.id, green.id]) expect((await call(t, owner, 'DELETE', `/api/v1/meetings/${id}`)).statusCode).toBe(200);
    expect(await mentionsIn(checkIn.id)).toEqual([]);
    expect((await tracker(t, owner, '?status=all')).items.every((i) => i.mentions.length === 0)).toBe(true);
    expect(await db.selectFrom('decision_links').select('id').where('id', '=', link!.linkId).execute()).toEqual([]);
    expect((await register(t, owner)).items.map((d) => d.meeting.id)).toEqual([planning.id, planning.id]);
  });
});

describe('the step after the notes are stored', () => {
  it('logs a failure to look for follow-ups and superseded decisions, and the notes stay ready', async () => {
    const t = await buildTestApp({ env: ENV });
    try {
      const owner = await newPerson(t, 'step-fails');
      // A table gone from under the step: its queries throw after the notes were stored.
      await t.deps.database.db.schema.dropTable('decision_links').execute();
      // A named best effort: logged at warn and counted on /status.
      const errors = vi.spyOn(t.deps.log, 'warn');
      const meeting = await meetingWithNotes(t, owner, 'Spring campaign', '2026-11-17T15:00:00.000Z', PLANNING);
      expect(meeting.notes).toMatchObject({ status: 'ready', failureReason: null });
      expect(meeting.insights.filter((i) => i.kind === 'action_item')).toHaveLength(3);
      expect(errors).toHaveBeenCalledWith(
        expect.objectContaining({ meetingId: meeting.id, effort: 'notes-follow-ups' }),
        expect.stringContaining('follow-ups'),
      );
    } finally {
      await t.close();
    }
  });
});
