import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_TRANSCRIPT_IMPORT_BYTES,
  MeetingDetailSchema,
  MeetingListResponseSchema,
  MeetingStatsSchema,
  STORAGE_ALLOWANCE_BYTES,
  type MeetingDetail,
} from '#shared/contracts/meetings.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { BAD_TIMESTAMP_VTT, OTTER_SRT, SPEAKER_BLOCKS_TXT, TEAMS_VTT } from '#tests/support/transcript-samples.ts';

// POST /api/v1/meetings/imports on the real server and database: a transcript file becomes a ready
// meeting without audio, its speakers named from the file, its notes made like a transcription's.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' } });
});
afterAll(() => t.close());

type Caller = { token: string; userId: string };
const newCaller = () => signUpUser(t.app, 'import');

const call = (who: Caller | undefined, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: who ? { authorization: `Bearer ${who.token}` } : {}, ...(payload ? { payload } : {}) });

const importFile = (who: Caller | undefined, body: object) => call(who, 'POST', '/api/v1/meetings/imports', body);

const meeting = async (who: Caller, id: string): Promise<MeetingDetail> => MeetingDetailSchema.parse((await call(who, 'GET', `/api/v1/meetings/${id}`)).json());

const imported = async (who: Caller, body: object): Promise<MeetingDetail> => {
  const response = await importFile(who, body);
  expect(response.statusCode, response.body).toBe(201);
  return MeetingDetailSchema.parse(response.json());
};

/** Every row an import writes, across all accounts: an import that fails must leave these as they were. */
const rowCounts = async () => {
  const { db } = t.deps.database;
  const count = async (table: 'meetings' | 'meeting_speakers' | 'transcript_segments' | 'meeting_participants') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    meetings: await count('meetings'),
    speakers: await count('meeting_speakers'),
    segments: await count('transcript_segments'),
    participants: await count('meeting_participants'),
  };
};

describe('importing a transcript', () => {
  let owner: Caller;
  beforeAll(async () => {
    owner = await newCaller();
  });

  it('answers 201 with a ready meeting without audio: speakers named from the file, timed segments, title from the file name', async () => {
    const before = new Date().toISOString();
    const created = await imported(owner, { fileName: 'Launch sync.vtt', content: TEAMS_VTT });
    const after = new Date().toISOString();
    expect(created).toMatchObject({ title: 'Launch sync', status: 'ready', source: 'import', hasAudio: false, durationSeconds: 66, isSample: false });
    expect(created.speakers.map((s) => s.displayName)).toEqual(['Megan Bowen', 'Alex Wilber']);
    expect(created.participants).toEqual(['Megan Bowen', 'Alex Wilber']);
    const nameOf = new Map(created.speakers.map((s) => [s.id, s.displayName]));
    expect(created.segments.map((s) => [nameOf.get(s.speakerId ?? ''), s.startMs, s.endMs, s.text])).toEqual([
      ['Megan Bowen', 3120, 7640, "Good morning, everyone. Let's review the launch checklist before Thursday."],
      ['Alex Wilber', 8010, 12_300, 'The store listing is approved & the screenshots are uploaded.'],
      ['Megan Bowen', 12_900, 16_020, 'Good. We decided to ship on Thursday morning.'],
      ['Alex Wilber', 62_000, 65_500, 'I will post the release notes after the launch.'],
    ]);
    expect(created.startedAt >= before && created.startedAt <= after).toBe(true); // now, when not given
    expect(await meeting(owner, created.id)).toMatchObject({ id: created.id, source: 'import', segments: created.segments });
    expect((await call(owner, 'GET', `/api/v1/meetings/${created.id}/audio`)).statusCode).toBe(404);
  });

  it('hands the transcript to the notes stage, which makes notes citing its segments (the user settings default)', { timeout: 60_000 }, async () => {
    const created = await imported(owner, { fileName: 'design-review.srt', content: OTTER_SRT, title: 'Design review', startedAt: '2026-11-17T15:00:00.000Z' });
    expect(created).toMatchObject({ title: 'Design review', startedAt: '2026-11-17T15:00:00.000Z', durationSeconds: 12 });
    expect(['queued', 'running', 'ready']).toContain(created.notes.status);
    await expect.poll(async () => (await meeting(owner, created.id)).notes.status, { timeout: 50_000, interval: 200 }).toBe('ready');
    const done = await meeting(owner, created.id);
    const segmentIds = new Set(done.segments.map((s) => s.id));
    expect(done.insights.length).toBeGreaterThan(0);
    for (const item of done.insights) for (const id of item.segmentIds) expect(segmentIds.has(id)).toBe(true);
  });

  it("follows the person's AI Summary Generation setting: off means no notes", async () => {
    const person = await newCaller();
    expect((await call(person, 'PUT', '/api/v1/settings/recording', { aiSummary: false })).statusCode).toBe(200);
    const created = await imported(person, { fileName: 'standup.txt', content: SPEAKER_BLOCKS_TXT });
    expect(created.notes.status).toBe('off');
    // Decided by the notes stage (its state stored as off), not merely never handed over: the stage
    // hears of the transcript through its domain event, a moment after the import answered.
    const state = () => t.deps.database.db.selectFrom('meeting_notes').select('status').where('meeting_id', '=', created.id).executeTakeFirst();
    await expect.poll(async () => (await state())?.status).toBe('off');
    expect(created.speakers.map((s) => s.displayName)).toEqual(['Jane Cooper', 'Wade Warren']);
    expect(created.durationSeconds).toBe(66); // the last block starts at 1:04 and takes 3 words' time
  });

  it('is found by its transcript words, listed in the history, and exported as TXT, DOCX and PDF', async () => {
    const created = await imported(owner, { fileName: 'zebra.vtt', content: TEAMS_VTT.replace('release notes', 'zebrafish notes') });
    const found = MeetingListResponseSchema.parse((await call(owner, 'GET', '/api/v1/meetings?q=zebrafish')).json());
    expect(found.items.map((m) => m.id)).toEqual([created.id]);
    const history = MeetingListResponseSchema.parse((await call(owner, 'GET', '/api/v1/meetings?pageSize=100')).json());
    expect(history.items.find((m) => m.id === created.id)).toMatchObject({ source: 'import', status: 'ready', hasAudio: false });
    const txt = await call(owner, 'GET', `/api/v1/meetings/${created.id}/export?format=txt`);
    expect(txt.statusCode).toBe(200);
    expect(txt.body).toContain('[01:02] Alex Wilber: I will post the zebrafish notes after the launch.');
    for (const format of ['docx', 'pdf']) expect((await call(owner, 'GET', `/api/v1/meetings/${created.id}/export?format=${format}`)).statusCode).toBe(200);
  });

  it("reads back Parley's own WebVTT and SRT exports as the same transcript", async () => {
    const original = await imported(owner, { fileName: 'original.vtt', content: TEAMS_VTT });
    for (const format of ['vtt', 'srt']) {
      const exported = (await call(owner, 'GET', `/api/v1/meetings/${original.id}/export?format=${format}`)).body;
      const again = await imported(owner, { fileName: `again.${format}`, content: exported });
      expect(again.speakers.map((s) => s.displayName)).toEqual(['Megan Bowen', 'Alex Wilber']);
      expect(again.segments.map((s) => [s.startMs, s.endMs, s.text])).toEqual(original.segments.map((s) => [s.startMs, s.endMs, s.text]));
    }
  });
});

describe('an import that cannot be read', () => {
  let owner: Caller;
  beforeAll(async () => {
    owner = await newCaller();
  });

  it('answers 400 naming the line, and leaves nothing behind', async () => {
    const before = await rowCounts();
    const response = await importFile(owner, { fileName: 'broken.vtt', content: BAD_TIMESTAMP_VTT });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: {
        code: 'VALIDATION_FAILED',
        message: 'Line 10: expected a timestamp like 00:01:02.000 --> 00:01:05.000, found "00:00:1x.000 --> 00:00:12.000"',
        details: { line: 10 },
      },
    });
    expect(await rowCounts()).toEqual(before);
    const list = MeetingListResponseSchema.parse((await call(owner, 'GET', '/api/v1/meetings?pageSize=100')).json());
    expect(list.items.filter((m) => m.source === 'import')).toEqual([]);
  });

  it('leaves nothing behind when the database refuses a segment halfway through the import', async () => {
    const { db, dialect } = t.deps.database;
    // A trigger stands in for a failure after the meeting and its speakers are written (a full disk, a lost connection).
    if (dialect === 'postgres') {
      await sql`create function reject_exploding_segment() returns trigger language plpgsql as $$
        begin if new.text = 'Explode here.' then raise exception 'segment refused'; end if; return new; end $$`.execute(db);
      await sql`create trigger reject_exploding_segment before insert on transcript_segments for each row execute function reject_exploding_segment()`.execute(
        db,
      );
    } else {
      await sql`create trigger reject_exploding_segment before insert on transcript_segments when new.text = 'Explode here.'
        begin select raise(abort, 'segment refused'); end`.execute(db);
    }
    try {
      const before = await rowCounts();
      const response = await importFile(owner, { fileName: 'boom.txt', content: 'Jane Cooper: All fine so far.\nWade Warren: Explode here.\n' });
      expect(response.statusCode).toBe(500);
      expect(await rowCounts()).toEqual(before);
      const found = MeetingListResponseSchema.parse((await call(owner, 'GET', '/api/v1/meetings?q=fine')).json());
      expect(found.total).toBe(0); // no search row either
    } finally {
      await sql`drop trigger reject_exploding_segment${dialect === 'postgres' ? sql` on transcript_segments` : sql``}`.execute(db);
    }
  });

  it('answers 400 at line 1 for an empty file', async () => {
    const before = await rowCounts();
    const response = await importFile(owner, { fileName: 'empty.txt', content: '\n  \n' });
    expect(response.statusCode).toBe(400);
    expect((response.json() as { error: { message: string } }).error.message).toBe(
      'Line 1: the file is empty; expected a WebVTT or SRT transcript, or lines like "Name: text"',
    );
    expect(await rowCounts()).toEqual(before);
  });

  it('answers 400 naming the line for a time past the longest meeting, and stores nothing (the meeting and searches stay readable)', async () => {
    const before = await rowCounts();
    const content = 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v Ann>Kumquat time.\n\n9999999999:00:00.000 --> 9999999999:00:01.000\n<v Ann>Later.\n';
    const response = await importFile(owner, { fileName: 'far.vtt', content });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: {
        code: 'VALIDATION_FAILED',
        message: 'Line 6: expected times within 168 hours (the longest meeting), found "9999999999:00:00.000 --> 9999999999:00:01.000"',
        details: { line: 6 },
      },
    });
    expect(await rowCounts()).toEqual(before);
    expect((await call(owner, 'GET', '/api/v1/meetings?q=kumquat')).statusCode).toBe(200);
  });

  it('answers 400 naming the problem for hostile small files: thousands of speakers, tags nested a million deep', async () => {
    const before = await rowCounts();
    const crowd = `WEBVTT\n\n${Array.from({ length: 7000 }, (_, i) => `00:00:01.000 --> 00:00:02.000\n<v Person ${i}>hi\n`).join('\n')}`;
    const many = await importFile(owner, { fileName: 'crowd.vtt', content: crowd });
    expect(many.statusCode).toBe(400);
    expect(many.json()).toEqual({ error: { code: 'VALIDATION_FAILED', message: 'The transcript names 7,000 speakers; an import takes at most 200.' } });
    const deep = `WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n${'<b>'.repeat(1_000_000)}deep\n`;
    const nested = await importFile(owner, { fileName: 'deep.vtt', content: deep });
    expect(nested.statusCode).toBe(400);
    expect(nested.json()).toMatchObject({
      error: { code: 'VALIDATION_FAILED', message: "Line 4: expected tags nested at most 32 deep in a cue's text, found 1,000,000", details: { line: 4 } },
    });
    expect(await rowCounts()).toEqual(before);
  });

  it('answers 400 saying the limit and what the file has for more lines than any meeting (194,000 one-letter cues)', async () => {
    const before = await rowCounts();
    const cues = `WEBVTT\n\n${'00:01.000 --> 00:02.000\na\n\n'.repeat(194_000)}`;
    expect(Buffer.byteLength(cues)).toBeLessThanOrEqual(MAX_TRANSCRIPT_IMPORT_BYTES);
    const response = await importFile(owner, { fileName: 'flood.vtt', content: cues });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: { code: 'VALIDATION_FAILED', message: 'The transcript has 194,000 lines; an import takes at most 20,000. Split it into parts.' },
    });
    expect(await rowCounts()).toEqual(before);
  });

  it('answers 413 for a file over 5 MB, and 400 without a file name', async () => {
    const big = await importFile(owner, { fileName: 'huge.txt', content: `Jane: ${'word '.repeat(MAX_TRANSCRIPT_IMPORT_BYTES / 5)}` });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({
      error: { code: 'PAYLOAD_TOO_LARGE', message: 'The file is larger than 5 MB. Import a shorter transcript, or split it into parts.' },
    });
    expect((await importFile(owner, { content: 'Jane: hi' })).statusCode).toBe(400);
  });
});

describe('imports in the storage quota', () => {
  const stats = async (who: Caller) => MeetingStatsSchema.parse((await call(who, 'GET', '/api/v1/meetings/stats')).json());

  it("counts the file's bytes in the storage used, until the meeting is deleted", async () => {
    const owner = await newCaller();
    const before = (await stats(owner)).storageBytes;
    const created = await imported(owner, { fileName: 'counted.vtt', content: TEAMS_VTT });
    expect((await stats(owner)).storageBytes - before).toBe(Buffer.byteLength(TEAMS_VTT));
    expect((await call(owner, 'DELETE', `/api/v1/meetings/${created.id}`)).statusCode).toBe(200);
    expect((await stats(owner)).storageBytes).toBe(before);
  });

  it('answers 413 for a file that does not fit in what is left of the quota, and stores nothing', async () => {
    const owner = await newCaller();
    const before = (await stats(owner)).storageBytes;
    // A recording of the owner's that leaves one byte too few for the file (the blob store counts it).
    const fill = STORAGE_ALLOWANCE_BYTES - before - Buffer.byteLength(TEAMS_VTT) + 1;
    const key = t.deps.blobs.newKey('webm');
    await t.deps.database.db
      .insertInto('blobs')
      .values({ key, owner_id: owner.userId, kind: 'recording', bytes: fill, created_at: new Date().toISOString() })
      .execute();
    const counts = await rowCounts();
    const response = await importFile(owner, { fileName: 'one-too-many.vtt', content: TEAMS_VTT });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      error: {
        code: 'PAYLOAD_TOO_LARGE',
        message: 'This transcript does not fit in your 10 GB of storage. Delete meetings you no longer need to make room, then try again.',
      },
    });
    expect(await rowCounts()).toEqual(counts);
    // One byte less of audio, and it fits exactly.
    await t.deps.database.db
      .updateTable('blobs')
      .set({ bytes: fill - 1 })
      .where('key', '=', key)
      .execute();
    await imported(owner, { fileName: 'just-fits.vtt', content: TEAMS_VTT });
    expect((await stats(owner)).storageBytes).toBe(STORAGE_ALLOWANCE_BYTES);
  });
});

describe('who may import and see an import', () => {
  it('answers 401 without a token and stores nothing', async () => {
    const before = await rowCounts();
    const response = await importFile(undefined, { fileName: 'standup.vtt', content: TEAMS_VTT });
    expect(response.statusCode).toBe(401);
    expect(await rowCounts()).toEqual(before);
  });

  it('keeps an import from another person: not readable, listed, found or exported', async () => {
    const owner = await newCaller();
    const stranger = await newCaller();
    const created = await imported(owner, { fileName: 'private.vtt', content: TEAMS_VTT.replace('release notes', 'quokka notes') });
    expect((await call(stranger, 'GET', `/api/v1/meetings/${created.id}`)).statusCode).toBe(404);
    expect((await call(stranger, 'GET', `/api/v1/meetings/${created.id}/export?format=txt`)).statusCode).toBe(404);
    const theirs = MeetingListResponseSchema.parse((await call(stranger, 'GET', '/api/v1/meetings?q=quokka')).json());
    expect(theirs.total).toBe(0);
  });
});
