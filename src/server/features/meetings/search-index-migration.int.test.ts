import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMeetings } from './meetings.repository.ts';
import { createTestDatabase, testDatabaseKind } from '#tests/support/test-database.ts';
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
