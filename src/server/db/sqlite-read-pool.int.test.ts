import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '#tests/support/test-database.ts';
import { createDb, type DbHandle } from './create-db.ts';
import type { Db } from './create-db.ts';
import { createSqliteReadPool, ReadThreadStopped } from './sqlite-read-pool.ts';

/**
 * The SQLite read pool (searches off the server's thread): many reads at once each get their own
 * answer, a read's transaction keeps its temp tables to itself, and a thread that ends fails only
 * the read it was answering. A file of its own on SQLite: the pool is SQLite's alone.
 */
describe.skipIf(testDatabaseKind() !== 'sqlite')('the SQLite read pool', () => {
  let dir: string;
  let handle: DbHandle;
  let pool: Db;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-read-pool-'));
    handle = createDb({ dialect: 'sqlite', file: path.join(dir, 'pool.db') });
    await sql`create table words (n integer primary key, word text not null)`.execute(handle.db);
    await sql`insert into words (n, word)
      with recursive c(x) as (select 1 union all select x + 1 from c where x < 500) select x, 'word-' || x from c`.execute(handle.db);
    // A small heap per thread, so a read that asks for too much ends its thread as a crash would.
    pool = createSqliteReadPool(path.join(dir, 'pool.db'), { size: 3, resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 } });
  });
  afterAll(async () => {
    await pool.destroy();
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const wordOf = async (n: number) => (await sql<{ word: string }>`select word from words where n = ${n}`.execute(pool)).rows[0]?.word;

  it('answers many reads at once, each with its own rows, and sees what the writer committed', async () => {
    const ns = Array.from({ length: 40 }, (_, i) => i * 7 + 1);
    expect(await Promise.all(ns.map(wordOf))).toEqual(ns.map((n) => `word-${n}`));
    await sql`insert into words (n, word) values (1000, 'committed just now')`.execute(handle.db);
    expect(await wordOf(1000)).toBe('committed just now');
  });

  it("keeps each read's transaction and temp table to itself while others run", async () => {
    const scratch = async (tag: number) => {
      const trx = await pool.startTransaction().execute();
      try {
        await sql`create temp table if not exists scratch (tag integer)`.execute(trx);
        await sql`insert into scratch (tag) values (${tag}), (${tag})`.execute(trx);
        await new Promise((resolve) => setImmediate(resolve));
        return (await sql<{ tag: number }>`select tag from scratch`.execute(trx)).rows.map((r) => r.tag);
      } finally {
        await trx.rollback().execute();
      }
    };
    const tags = Array.from({ length: 12 }, (_, i) => i);
    expect(await Promise.all(tags.map(scratch))).toEqual(tags.map((tag) => [tag, tag]));
  });

  it('refuses to write to the database file', async () => {
    await expect(sql`insert into words (n, word) values (2000, 'no')`.execute(pool)).rejects.toThrow(/readonly/);
    expect(await wordOf(1)).toBe('word-1');
  });

  it('fails only the read whose thread crashed, and answers the next on a new thread', async () => {
    // Fifty thousand rows of a kilobyte each: three times the thread's heap, which ends it (out of memory).
    const crashing = sql`with recursive c(x) as (select 1 union all select x + 1 from c where x < 50000) select x, printf('%01000d', x) as pad from c`
      .execute(pool)
      .then(
        () => 'answered',
        (error: unknown) => error,
      );
    const [error, ...quick] = await Promise.all([crashing, ...[3, 5, 8, 13].map(wordOf)]);
    expect(error).toBeInstanceOf(ReadThreadStopped);
    expect(String((error as Error).message)).toMatch(/^the database read thread stopped \(.*memory.*\); this read was not answered/);
    expect(quick).toEqual(['word-3', 'word-5', 'word-8', 'word-13']);
    expect(await Promise.all([21, 34, 55, 89].map(wordOf))).toEqual(['word-21', 'word-34', 'word-55', 'word-89']);
  });
});
