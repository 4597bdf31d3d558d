import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import type { SqliteDatabase as KyselySqliteDatabase, SqliteStatement } from 'kysely';
import { LRUCache } from 'lru-cache';

/**
 * better-sqlite3 for Kysely with its prepared statements kept: Kysely prepares every query's SQL
 * anew, and compiling the same statements again on each request was a fifth of what an
 * authenticated API request cost. Statements are kept by their SQL text (parameters are bound, so a
 * query's text repeats), the least recently used dropped past `max`. A statement being iterated
 * (Kysely's stream()) is busy until the iteration ends, so iteration gets a statement of its own.
 */
export function withStatementCache(sqlite: SqliteDatabase, max = 500): KyselySqliteDatabase {
  const cache = new LRUCache<string, Statement>({ max });
  return {
    close: () => {
      cache.clear();
      sqlite.close();
    },
    prepare: (sql: string): SqliteStatement => {
      let statement = cache.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        cache.set(sql, statement);
      }
      const prepared = statement;
      return {
        reader: prepared.reader,
        all: (parameters) => prepared.all(parameters),
        run: (parameters) => prepared.run(parameters),
        iterate: (parameters) => sqlite.prepare(sql).iterate(parameters),
      };
    },
  };
}
