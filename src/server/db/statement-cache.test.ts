import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from './statement-cache.ts';

type Db = { notes: { id: number; text: string } };

function open() {
  const sqlite = new SqliteDatabase(':memory:');
  sqlite.exec('create table notes (id integer primary key, text text not null)');
  return { sqlite, db: new Kysely<Db>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite, 2) }) }) };
}

describe('kept prepared statements', () => {
  it('give the same answers as fresh ones, through writes and the eviction of older statements', async () => {
    const { db } = open();
    await db.insertInto('notes').values({ id: 1, text: 'one' }).execute();
    await db.insertInto('notes').values({ id: 2, text: 'two' }).execute();
    const byId = (id: number) => db.selectFrom('notes').select('text').where('id', '=', id).executeTakeFirst();
    expect(await byId(1)).toEqual({ text: 'one' });
    expect(await byId(2)).toEqual({ text: 'two' });
    await db.updateTable('notes').set({ text: 'uno' }).where('id', '=', 1).execute();
    await db
      .selectFrom('notes')
      .select((eb) => eb.fn.countAll().as('n'))
      .execute(); // a third statement evicts one
    expect(await byId(1)).toEqual({ text: 'uno' });
    expect(await db.selectFrom('notes').select('id').orderBy('id').execute()).toEqual([{ id: 1 }, { id: 2 }]);
    await db.destroy();
  });

  it('leave a query answering after the same query was streamed and left half-read', async () => {
    const { db } = open();
    await db
      .insertInto('notes')
      .values([1, 2, 3].map((id) => ({ id, text: `note ${id}` })))
      .execute();
    const all = db.selectFrom('notes').select(['id', 'text']).orderBy('id');
    expect(await all.execute()).toHaveLength(3);
    for await (const row of all.stream()) {
      expect(row.id).toBe(1);
      break;
    }
    expect((await all.execute()).map((r) => r.id)).toEqual([1, 2, 3]);
    await db.destroy();
  });
});
