import { parentPort, workerData } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';
import { withStatementCache } from './statement-cache.ts';

/**
 * One reader of the read pool (sqlite-read-pool.ts): its own read-only connection to the server's
 * SQLite file (WAL: it reads the last commit without waiting for the writer, nor holding it up), on a
 * thread of its own. It runs the statements it is sent one at a time and answers each, as Kysely's
 * own SQLite connection would; a statement's failure is its answer, never the thread's end.
 */
export type ReadRequest = { sql: string; parameters: readonly unknown[] };
export type ReadReply =
  { rows: unknown[] } | { rows: []; changes: number; lastInsertRowid: number | bigint } | { error: { message: string; name: string; code?: string } };

const { file } = workerData as { file: string };
const sqlite = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
sqlite.pragma('busy_timeout = 5000');
const statements = withStatementCache(sqlite);
const port = parentPort!;

port.on('message', ({ sql, parameters }: ReadRequest) => {
  let reply: ReadReply;
  try {
    const statement = statements.prepare(sql);
    if (statement.reader) reply = { rows: statement.all(parameters) as unknown[] };
    else {
      // Writes reach only this connection's temp tables (scratch space of a read): the file is read-only.
      const { changes, lastInsertRowid } = statement.run(parameters);
      reply = { rows: [], changes: Number(changes), lastInsertRowid };
    }
  } catch (error) {
    const { message, name, code } = error as Error & { code?: string };
    reply = { error: { message, name, ...(typeof code === 'string' ? { code } : {}) } };
  }
  port.postMessage(reply);
});
port.postMessage({ ready: true });
