import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.ts';
import { ensurePrivateDir, ensurePrivateFile, makePrivate } from '../lib/private-files.ts';
import { CurrentSchemaPostgresDialect } from './current-schema-introspector.ts';
import type { Database } from './database.ts';
import { createSqliteReadPool } from './sqlite-read-pool.ts';
import { withStatementCache } from './statement-cache.ts';

export type Db = Kysely<Database>;
export type Dialect = DatabaseConfig['dialect'];

export type DbHandle = {
  db: Db;
  /**
   * Where long reads (search) run: on a SQLite file, a pool of read-only connections on threads of
   * their own (sqlite-read-pool.ts), so they never hold up the server's thread; else `db` itself.
   */
  reads: Db;
  dialect: Dialect;
  /** PostgreSQL only: the connection string, for pg-boss's own pool on the same database. */
  url?: string;
  close: () => Promise<void>;
};

type CreateDbOptions = {
  /**
   * PostgreSQL only: libpq options for every connection (`-c name=value …`); the tests put each file
   * in a schema of its own (search_path).
   */
  connectionOptions?: string;
};

/** Opens the database named by the config: embedded SQLite (WAL, foreign keys on) or a PostgreSQL pool. */
export function createDb(config: DatabaseConfig, options: CreateDbOptions = {}): DbHandle {
  if (config.dialect === 'sqlite') {
    if (config.file !== ':memory:') {
      // 0600 before SQLite opens it: SQLite gives the -wal and -shm files the database file's mode.
      ensurePrivateDir(path.dirname(config.file));
      ensurePrivateFile(config.file);
      for (const companion of ['-wal', '-shm', '-journal']) makePrivate(`${config.file}${companion}`);
    }
    const sqlite = new SqliteDatabase(config.file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    // WAL + NORMAL is durable against application crashes and is SQLite's recommended pairing.
    sqlite.pragma('synchronous = NORMAL');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    if (config.file === ':memory:' || config.readThreads === 0) return { db, reads: db, dialect: 'sqlite', close: () => db.destroy() };
    const reads = createSqliteReadPool(config.file, config.readThreads === undefined ? {} : { size: config.readThreads });
    return {
      db,
      reads,
      dialect: 'sqlite',
      close: async () => {
        await reads.destroy();
        await db.destroy();
      },
    };
  }
  const pool = new pg.Pool({
    connectionString: config.url,
    max: 10,
    ...(options.connectionOptions ? { options: options.connectionOptions } : {}),
  });
  // Introspection (the migrator's) reads Parley's schema only: see current-schema-introspector.ts.
  const db = new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool }) });
  return { db, reads: db, dialect: 'postgres', url: config.url, close: () => db.destroy() };
}
