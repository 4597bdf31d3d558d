import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MeetingDetailSchema, MeetingListResponseSchema, SpeakerNamesSchema, type MeetingDetail } from '#shared/contracts/meetings.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' } });
});
afterAll(() => t.close());

const call = (token: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });

async function meetingTitled(token: string, title: string): Promise<MeetingDetail> {
  const list = MeetingListResponseSchema.parse((await call(token, 'GET', '/api/v1/meetings')).json());
  const id = list.items.find((m) => m.title === title)!.id;
  return MeetingDetailSchema.parse((await call(token, 'GET', `/api/v1/meetings/${id}`)).json());
}

const speakerOf = (meeting: MeetingDetail, name: string) => meeting.speakers.find((s) => s.displayName === name)!;
const namesOfLines = (meeting: MeetingDetail) => meeting.segments.map((line) => meeting.speakers.find((s) => s.id === line.speakerId)?.displayName);

describe("a meeting's speakers", () => {
  it("merges one speaker into another: the lines are the other's and the first is gone", async () => {
    const token = (await signUpUser(t.app, 'merge')).token;
    const meeting = await meetingTitled(token, 'Weekly Team Standup');
    expect(namesOfLines(meeting)).toEqual(['Alex Johnson', 'Sarah Miller', 'David Chen', 'Alex Johnson', 'Emma Wilson', 'Alex Johnson']);
    const emma = speakerOf(meeting, 'Emma Wilson');
    const alex = speakerOf(meeting, 'Alex Johnson');

    const response = await call(token, 'POST', `/api/v1/meetings/${meeting.id}/speakers/${emma.id}/merge`, { intoSpeakerId: alex.id });
    expect(response.statusCode).toBe(200);
    const merged = MeetingDetailSchema.parse(response.json());
    expect(merged.speakers.map((s) => s.displayName)).toEqual(['Alex Johnson', 'Sarah Miller', 'David Chen']);
    expect(namesOfLines(merged)).toEqual(['Alex Johnson', 'Sarah Miller', 'David Chen', 'Alex Johnson', 'Alex Johnson', 'Alex Johnson']);
    // Read again, as stored.
    expect(namesOfLines(await meetingTitled(token, 'Weekly Team Standup'))).toEqual(namesOfLines(merged));
  });

  it('refuses a merge into itself, of a speaker not in the meeting, or of someone else', async () => {
    const token = (await signUpUser(t.app, 'merge-bad')).token;
    const meeting = await meetingTitled(token, 'Weekly Team Standup');
    const other = await meetingTitled(token, 'Product Roadmap Review');
    const alex = speakerOf(meeting, 'Alex Johnson');
    const sarah = speakerOf(meeting, 'Sarah Miller');
    const itself = await call(token, 'POST', `/api/v1/meetings/${meeting.id}/speakers/${alex.id}/merge`, { intoSpeakerId: alex.id });
    expect(itself.statusCode).toBe(400);
    expect(itself.json()).toEqual({ error: { code: 'VALIDATION_FAILED', message: 'A speaker cannot be merged into itself' } });
    const elsewhere = await call(token, 'POST', `/api/v1/meetings/${meeting.id}/speakers/${alex.id}/merge`, { intoSpeakerId: other.speakers[0]!.id });
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Speaker not found' } });
    const stranger = (await signUpUser(t.app, 'merge-stranger')).token;
    expect((await call(stranger, 'POST', `/api/v1/meetings/${meeting.id}/speakers/${alex.id}/merge`, { intoSpeakerId: sarah.id })).statusCode).toBe(404);
    expect((await call(token, 'POST', `/api/v1/meetings/${meeting.id}/speakers/${alex.id}/merge`, { intoSpeakerId: 'nope' })).statusCode).toBe(400);
    // Nothing changed.
    expect((await meetingTitled(token, 'Weekly Team Standup')).speakers).toEqual(meeting.speakers);
  });

  it('gives one line or a run of lines to another speaker, all or nothing', async () => {
    const token = (await signUpUser(t.app, 'assign')).token;
    const meeting = await meetingTitled(token, 'Weekly Team Standup');
    const other = await meetingTitled(token, 'Product Roadmap Review');
    const emma = speakerOf(meeting, 'Emma Wilson');
    const [, second, third] = meeting.segments;

    const one = await call(token, 'POST', `/api/v1/meetings/${meeting.id}/segments/speaker`, { segmentIds: [second!.id], speakerId: emma.id });
    expect(one.statusCode).toBe(200);
    expect(namesOfLines(MeetingDetailSchema.parse(one.json()))).toEqual([
      'Alex Johnson',
      'Emma Wilson',
      'David Chen',
      'Alex Johnson',
      'Emma Wilson',
      'Alex Johnson',
    ]);

    const sarah = speakerOf(meeting, 'Sarah Miller');
    const run = await call(token, 'POST', `/api/v1/meetings/${meeting.id}/segments/speaker`, { segmentIds: [second!.id, third!.id], speakerId: sarah.id });
    expect(namesOfLines(MeetingDetailSchema.parse(run.json()))).toEqual([
      'Alex Johnson',
      'Sarah Miller',
      'Sarah Miller',
      'Alex Johnson',
      'Emma Wilson',
      'Alex Johnson',
    ]);

    // A line of another meeting among them, or another meeting's speaker: nothing moves.
    const mixed = await call(token, 'POST', `/api/v1/meetings/${meeting.id}/segments/speaker`, {
      segmentIds: [second!.id, other.segments[0]!.id],
      speakerId: emma.id,
    });
    expect(mixed.statusCode).toBe(404);
    expect(mixed.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Speaker or transcript line not found' } });
    const foreignSpeaker = await call(token, 'POST', `/api/v1/meetings/${meeting.id}/segments/speaker`, {
      segmentIds: [second!.id],
      speakerId: other.speakers[0]!.id,
    });
    expect(foreignSpeaker.statusCode).toBe(404);
    expect(namesOfLines(await meetingTitled(token, 'Weekly Team Standup'))).toEqual([
      'Alex Johnson',
      'Sarah Miller',
      'Sarah Miller',
      'Alex Johnson',
      'Emma Wilson',
      'Alex Johnson',
    ]);
    expect((await call(token, 'POST', `/api/v1/meetings/${meeting.id}/segments/speaker`, { segmentIds: [], speakerId: emma.id })).statusCode).toBe(400);
    const stranger = (await signUpUser(t.app, 'assign-stranger')).token;
    expect((await call(stranger, 'POST', `/api/v1/meetings/${meeting.id}/segments/speaker`, { segmentIds: [second!.id], speakerId: emma.id })).statusCode).toBe(
      404,
    );
  });

  it('splits a line between two words and joins it again (the undo), the times shared by the characters', async () => {
    const token = (await signUpUser(t.app, 'split')).token;
    const meeting = await meetingTitled(token, 'Weekly Team Standup');
    const line = meeting.segments[0]!;
    const cut = line.text.indexOf(' ', Math.floor(line.text.length / 2));
    const split = await call(token, 'POST', `/api/v1/meetings/${meeting.id}/segments/${line.id}/split`, { at: cut });
    expect(split.statusCode).toBe(200);
    const after = MeetingDetailSchema.parse(split.json());
    expect(after.segments).toHaveLength(meeting.segments.length + 1);
    const [first, second] = after.segments;
    expect([first!.text, second!.text]).toEqual([line.text.slice(0, cut).trim(), line.text.slice(cut).trim()]);
    expect(first!.speakerId).toBe(line.speakerId);
    expect(second!.speakerId).toBe(line.speakerId);
    expect(first!.startMs).toBe(line.startMs);
    expect(second!.endMs).toBe(line.endMs);
    expect(first!.endMs).toBe(second!.startMs);
    expect(first!.endMs).toBeGreaterThan(line.startMs);
    expect(first!.endMs).toBeLessThan(line.endMs);

    // Nothing on one side, another's meeting: refused, nothing changed.
    const edge = await call(token, 'POST', `/api/v1/meetings/${meeting.id}/segments/${first!.id}/split`, { at: first!.text.length });
    expect(edge.statusCode).toBe(400);
    expect(edge.json()).toEqual({ error: { code: 'VALIDATION_FAILED', message: 'A line is split between two words, with words on either side.' } });
    const stranger = (await signUpUser(t.app, 'split-stranger')).token;
    expect((await call(stranger, 'POST', `/api/v1/meetings/${meeting.id}/segments/${first!.id}/split`, { at: 3 })).statusCode).toBe(404);

    const joined = await call(token, 'POST', `/api/v1/meetings/${meeting.id}/segments/${first!.id}/join`, { nextSegmentId: second!.id });
    expect(joined.statusCode).toBe(200);
    const restored = MeetingDetailSchema.parse(joined.json()).segments;
    expect(restored.map((s) => [s.text, s.speakerId, s.startMs, s.endMs])).toEqual(meeting.segments.map((s) => [s.text, s.speakerId, s.startMs, s.endMs]));
  });

  it('moves a run of lines to a new speaker, and back (the undo) with the empty speaker merged away', async () => {
    const token = (await signUpUser(t.app, 'new-speaker')).token;
    const meeting = await meetingTitled(token, 'Weekly Team Standup');
    const [, second, third] = meeting.segments;
    const moved = await call(token, 'POST', `/api/v1/meetings/${meeting.id}/segments/speaker`, { segmentIds: [second!.id, third!.id], speakerId: 'new' });
    expect(moved.statusCode).toBe(200);
    const after = MeetingDetailSchema.parse(moved.json());
    const added = after.speakers.find((s) => !meeting.speakers.some((old) => old.id === s.id))!;
    expect(added.label).toBe(`Speaker ${meeting.speakers.length + 1}`);
    expect(after.segments.filter((s) => s.speakerId === added.id).map((s) => s.id)).toEqual([second!.id, third!.id]);

    // A line of no meeting of theirs: nothing moves and no speaker is added.
    const bad = await call(token, 'POST', `/api/v1/meetings/${meeting.id}/segments/speaker`, { segmentIds: [crypto.randomUUID()], speakerId: 'new' });
    expect(bad.statusCode).toBe(404);
    expect((await meetingTitled(token, 'Weekly Team Standup')).speakers).toHaveLength(after.speakers.length);

    // Undo: each line back to its speaker, then the empty new speaker merged away.
    await call(token, 'POST', `/api/v1/meetings/${meeting.id}/segments/speaker`, { segmentIds: [second!.id], speakerId: second!.speakerId });
    await call(token, 'POST', `/api/v1/meetings/${meeting.id}/segments/speaker`, { segmentIds: [third!.id], speakerId: third!.speakerId });
    await call(token, 'POST', `/api/v1/meetings/${meeting.id}/speakers/${added.id}/merge`, { intoSpeakerId: second!.speakerId });
    const undone = await meetingTitled(token, 'Weekly Team Standup');
    expect(undone.speakers).toEqual(meeting.speakers);
    expect(namesOfLines(undone)).toEqual(namesOfLines(meeting));
  });

  it('undoes a move of a range held by several speakers in one change: each line back, the new speaker gone, all or nothing', async () => {
    const token = (await signUpUser(t.app, 'restore')).token;
    const meeting = await meetingTitled(token, 'Weekly Team Standup');
    const other = await meetingTitled(token, 'Product Roadmap Review');
    const range = meeting.segments.slice(1, 5); // Sarah, David, Alex, Emma
    const moved = MeetingDetailSchema.parse(
      (await call(token, 'POST', `/api/v1/meetings/${meeting.id}/segments/speaker`, { segmentIds: range.map((s) => s.id), speakerId: 'new' })).json(),
    );
    const added = moved.speakers.find((s) => !meeting.speakers.some((old) => old.id === s.id))!;
    expect(namesOfLines(moved)).toEqual(['Alex Johnson', null, null, null, null, 'Alex Johnson']); // the new speaker has no name yet
    const restore = (body: object, as = token) => call(as, 'POST', `/api/v1/meetings/${meeting.id}/segments/speakers/restore`, body);
    const lines = range.map((s) => ({ segmentId: s.id, speakerId: s.speakerId! }));

    // Someone else, a line of another meeting among them, or nothing to give back: refused, nothing changed.
    const stranger = (await signUpUser(t.app, 'restore-stranger')).token;
    expect((await restore({ lines, removeSpeakerId: added.id }, stranger)).statusCode).toBe(404);
    const mixed = await restore({ lines: [...lines, { segmentId: other.segments[0]!.id, speakerId: lines[0]!.speakerId }], removeSpeakerId: added.id });
    expect(mixed.statusCode).toBe(404);
    expect(mixed.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Speaker or transcript line not found' } });
    expect((await restore({ lines: [] })).statusCode).toBe(400);
    expect(namesOfLines(await meetingTitled(token, 'Weekly Team Standup'))).toEqual(namesOfLines(moved));

    const edits = async () =>
      (await t.deps.database.db.selectFrom('domain_events').select('id').where('type', '=', 'transcript.edited').where('subject_id', '=', meeting.id).execute())
        .length;
    const editsBefore = await edits();
    const undone = await restore({ lines, removeSpeakerId: added.id });
    expect(undone.statusCode).toBe(200);
    const after = MeetingDetailSchema.parse(undone.json());
    expect(after.speakers).toEqual(meeting.speakers);
    expect(namesOfLines(after)).toEqual(namesOfLines(meeting));
    expect(await edits()).toBe(editsBefore + 1); // one edit, one event

    // A speaker that still has lines is kept: only the lines named move.
    const again = MeetingDetailSchema.parse(
      (await call(token, 'POST', `/api/v1/meetings/${meeting.id}/segments/speaker`, { segmentIds: range.map((s) => s.id), speakerId: 'new' })).json(),
    );
    const second = again.speakers.find((s) => !meeting.speakers.some((old) => old.id === s.id))!;
    const partly = MeetingDetailSchema.parse((await restore({ lines: lines.slice(0, 2), removeSpeakerId: second.id })).json());
    expect(partly.speakers.map((s) => s.id)).toContain(second.id);
    expect(partly.segments.filter((s) => s.speakerId === second.id).map((s) => s.id)).toEqual(range.slice(2).map((s) => s.id));
  });

  it("offers the names the person has given speakers in their meetings, most used first, and nobody else's", async () => {
    const token = (await signUpUser(t.app, 'names')).token;
    const meeting = await meetingTitled(token, 'Weekly Team Standup');
    await call(token, 'PATCH', `/api/v1/meetings/${meeting.id}/speakers/${speakerOf(meeting, 'David Chen').id}`, { displayName: 'Zed Quill' });

    const list = MeetingListResponseSchema.parse((await call(token, 'GET', '/api/v1/meetings')).json());
    const uses = new Map<string, number>();
    for (const item of list.items) {
      const detail = MeetingDetailSchema.parse((await call(token, 'GET', `/api/v1/meetings/${item.id}`)).json());
      for (const s of detail.speakers) if (s.displayName) uses.set(s.displayName, (uses.get(s.displayName) ?? 0) + 1);
    }
    const expected = [...uses].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)).map(([name]) => name);

    const { names } = SpeakerNamesSchema.parse((await call(token, 'GET', '/api/v1/meetings/speaker-names')).json());
    expect(names).toEqual(expected);
    expect(names).toContain('Zed Quill');
    const stranger = (await signUpUser(t.app, 'names-stranger')).token;
    expect(SpeakerNamesSchema.parse((await call(stranger, 'GET', '/api/v1/meetings/speaker-names')).json()).names).not.toContain('Zed Quill');
  });
});
