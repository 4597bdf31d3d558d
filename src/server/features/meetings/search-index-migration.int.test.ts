import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerOnly } from './meeting-access.ts';
import { listMeetings, searchInMeeting } from './meetings.repository.ts';
import { createTestDatabase, testDatabaseKind } from '#tests/support/test-database.ts';
import { currentSchema, isPostgres } from '#server/db/dialect.ts';
import type { DbHandle } from '#server/db/create-db.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import { MIGRATIONS } from '#server/db/migrations.ts';

/** Migration 1800 rebuilds SQLite's search index: meetings indexed before it are still found after it. */
describe.skipIf(testDatabaseKind() !== 'sqlite')('search index migration (SQLite)', () => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await createTestDatabase('sqlite');
  });
  afterAll(() => handle.close());

  it('carries every existing meeting, with its transcript, into the new index', async () => {
    const db = handle.db;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
    const before = await migrator.migrateTo('2026-11-22-1400-segment-sentiment');
    expect(before.error).toBeUndefined();

    const now = new Date().toISOString();
    // An owner row, whatever auth_users requires (this test is about search, not accounts).
    const { rows } = await sql<{ name: string; notnull: number; type: string }>`select name, "notnull", type from pragma_table_info('auth_users')`.execute(db);
    const values = rows.map((c) => (c.name === 'id' ? 'u1' : c.notnull ? (/int/i.test(c.type) ? 0 : 'x') : null));
    await sql`insert into auth_users (${sql.join(rows.map((c) => sql.ref(c.name)))}) values (${sql.join(values)})`.execute(db);
    await sql`insert into meetings (id, owner_id, title, started_at, duration_seconds, status, source, options, summary, is_sample, created_at, updated_at)
      values ('11111111-1111-4111-8111-111111111111', 'u1', 'Budget offsite', ${now}, 60, 'ready', 'upload', '{}', 'Planning next year', 0, ${now}, ${now})`.execute(
      db,
    );
    await sql`insert into transcript_segments (id, meeting_id, start_ms, end_ms, text) values ('s1', '11111111-1111-4111-8111-111111111111', 0, 1000, 'the giraffe enclosure needs funding')`.execute(
      db,
    );
    await sql`insert into meeting_search (meeting_id, title, summary, transcript) values ('11111111-1111-4111-8111-111111111111', 'Budget offsite', 'Planning next year', 'the giraffe enclosure needs funding')`.execute(
      db,
    );

    await migrateToLatest(db);
    const search = (q: string) => listMeetings(db, { userId: 'u1', teamIds: [] }, { q, page: 1, pageSize: 12 });
    expect((await search('giraffe')).items.map((m) => m.title)).toEqual(['Budget offsite']);
    expect((await search('planning nex')).total).toBe(1);
    expect((await search('elephant')).total).toBe(0);
  });
});

/**
 * Migration 2026-11-25-1000 (issue 14) indexes what an existing installation holds, on SQLite and
 * PostgreSQL: meetings, their speakers, transcripts, summaries, action items and decisions are found
 * after it, with highlighted passages at their moments, and only by their owner.
 */
describe('search passages migration', () => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(() => handle.close());

  it('backfills the meeting documents and the passages of every existing meeting', async () => {
    const db = handle.db;
    const schema = isPostgres(db) ? await currentSchema(db) : undefined;
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => MIGRATIONS },
      allowUnorderedMigrations: true,
      ...(schema ? { migrationTableSchema: schema } : {}),
    });
    const before = await migrator.migrateTo('2026-11-24-1100-seal-auth-secrets');
    expect(before.error).toBeUndefined();

    const now = new Date().toISOString();
    for (const user of ['u1', 'u2']) await insertUser(user, now);
    const meeting = (id: string, owner: string, title: string, startedAt: string, summary: string | null) =>
      sql`insert into meetings (id, owner_id, title, started_at, duration_seconds, status, source, options, summary, is_sample, created_at, updated_at)
        values (${id}, ${owner}, ${title}, ${startedAt}, 600, 'ready', 'upload', '{}', ${summary}, 0, ${now}, ${now})`.execute(db);
    const m1 = '11111111-1111-4111-8111-111111111111';
    const m2 = '22222222-2222-4222-8222-222222222222';
    const m3 = '33333333-3333-4333-8333-333333333333';
    await meeting(m1, 'u1', 'Budget offsite', '2026-03-01T10:00:00.000Z', 'Planning the okapi budget');
    await meeting(m2, 'u1', 'Hiring sync', '2026-02-01T10:00:00.000Z', null);
    await meeting(m3, 'u2', 'Someone else', '2026-03-02T10:00:00.000Z', null);
    const speaker = '44444444-4444-4444-8444-444444444444';
    await sql`insert into meeting_speakers (id, meeting_id, label, display_name, position) values (${speaker}, ${m1}, 'Speaker 1', 'Ingrid Halvorsen', 0)`.execute(
      db,
    );
    await sql`insert into meeting_participants (meeting_id, position, name, name_lower, source) values (${m1}, 0, 'Ingrid Halvorsen', 'ingrid halvorsen', 'speaker')`.execute(
      db,
    );
    const segment = (id: string, meetingId: string, startMs: number, text: string, speakerId: string | null) =>
      sql`insert into transcript_segments (id, meeting_id, speaker_id, start_ms, end_ms, text) values (${id}, ${meetingId}, ${speakerId}, ${startMs}, ${startMs + 3000}, ${text})`.execute(
        db,
      );
    const s1 = '55555555-5555-4555-8555-555555555555';
    await segment(s1, m1, 0, 'Welcome everyone.', speaker);
    await segment('66666666-6666-4666-8666-666666666666', m1, 12_000, 'The giraffe enclosure needs funding.', speaker);
    await segment('77777777-7777-4777-8777-777777777777', m2, 5000, 'A giraffe applied for the job.', null);
    await segment('88888888-8888-4888-8888-888888888888', m3, 5000, 'My giraffe, not yours.', null);
    await sql`insert into meeting_insights (id, meeting_id, kind, text, assignee, segment_id, position, segment_ids, start_ms, status)
      values ('99999999-9999-4999-8999-999999999999', ${m1}, 'action_item', 'Book the tapir venue', 'Ingrid Halvorsen', ${s1}, 0, ${JSON.stringify([s1])}, 0, 'open')`.execute(
      db,
    );
    await sql`insert into meeting_insights (id, meeting_id, kind, text, segment_id, position, segment_ids, start_ms, status)
      values ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', ${m1}, 'decision', 'Drop the wombat plan', ${s1}, 1, ${JSON.stringify([s1])}, 12000, 'dismissed')`.execute(
      db,
    );

    const after = await migrator.migrateToLatest();
    expect(after.error).toBeUndefined();

    const search = (owner: string, q: string, extra: object = {}) => listMeetings(db, ownerOnly(owner), { q, page: 1, pageSize: 12, ...extra });
    const giraffe = await search('u1', 'giraffe');
    expect(giraffe.items.map((m) => m.title)).toEqual(['Budget offsite', 'Hiring sync']);
    expect(giraffe.items[0]!.matches).toEqual([
      {
        kind: 'transcript',
        segmentId: '66666666-6666-4666-8666-666666666666',
        speaker: 'Ingrid Halvorsen',
        startMs: 12_000,
        snippet: [
          { text: 'The ', match: false },
          { text: 'giraffe', match: true },
          { text: ' enclosure needs funding.', match: false },
        ],
      },
    ]);
    expect((await search('u1', 'giraffe', { from: '2026-02-15' })).items.map((m) => m.title)).toEqual(['Budget offsite']);
    expect((await search('u1', 'halvors')).items.map((m) => m.title)).toEqual(['Budget offsite']);
    expect((await search('u1', 'okapi')).items[0]!.matches![0]).toMatchObject({ kind: 'summary', startMs: null });
    expect((await search('u1', 'tapir')).items[0]!.matches![0]).toMatchObject({ kind: 'action_item', speaker: 'Ingrid Halvorsen', startMs: 0 });
    expect((await search('u1', 'wombat')).total).toBe(0); // dismissed
    expect((await search('u2', 'giraffe')).items.map((m) => m.title)).toEqual(['Someone else']);
    expect(await searchInMeeting(db, ownerOnly('u2'), m1, 'giraffe')).toBeUndefined();
    expect((await searchInMeeting(db, ownerOnly('u1'), m1, 'giraffe'))?.map((m) => m.startMs)).toEqual([12_000]);
  });

  /** An owner row with whatever columns auth_users requires at this point of its history. */
  async function insertUser(id: string, now: string): Promise<void> {
    const db = handle.db;
    const columns = isPostgres(db)
      ? (
          await sql<{ name: string; required: boolean; type: string }>`
            select column_name as name, (is_nullable = 'NO' and column_default is null) as required, data_type as type
            from information_schema.columns where table_schema = current_schema() and table_name = 'auth_users'`.execute(db)
        ).rows
      : (await sql<{ name: string; notnull: number; type: string }>`select name, "notnull", type from pragma_table_info('auth_users')`.execute(db)).rows.map(
          (c) => ({
            name: c.name,
            required: c.notnull === 1,
            type: c.type,
          }),
        );
    const needed = columns.filter((c) => c.name === 'id' || c.required);
    const value = (c: { name: string; type: string }) =>
      c.name === 'id' ? id : /int|numeric/i.test(c.type) ? 0 : /bool/i.test(c.type) ? false : /time|date/i.test(c.type) ? now : `${id}-${c.name}`;
    await sql`insert into auth_users (${sql.join(needed.map((c) => sql.ref(c.name)))}) values (${sql.join(needed.map(value))})`.execute(db);
  }
});
