import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { CompiledQuery, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type DatabaseConnection, type Driver, type QueryResult } from 'kysely';
import type { Database } from './database.ts';
import type { ReadReply, ReadRequest } from './sqlite-read-worker.ts';

/**
 * SQLite reads off the server's thread. better-sqlite3 is synchronous: a search over a large
 * history spends most of its time inside SQLite, and while it runs the event loop answers no one,
 * so ten searches at once queued behind each other (and everything else behind them). This pool
 * gives each of a few worker threads its own read-only connection to the same file (WAL: readers
 * see the last commit and never block the writer) and answers Kysely's queries there, so reads run
 * beside each other and beside the server's thread.
 *
 * It is a Kysely dialect, so the repositories' queries are built (access filters included) exactly
 * as on the main connection and only their execution moves. A connection is one thread, held by one
 * caller at a time: a read's transaction (its temp tables) stays on one thread. piscina and its
 * kin hand each task to whichever thread is free and so could not keep a transaction's statements
 * together; this is the little they would have done.
 *
 * A thread that ends (a crash) fails the statement it was running with ReadThreadStopped, only that
 * one; the next caller gets a new thread.
 */
export class ReadThreadStopped extends Error {
  constructor(reason: string) {
    super(`the database read thread stopped (${reason}); this read was not answered, and the next gets a new thread`);
    this.name = 'ReadThreadStopped';
  }
}

type PoolOptions = {
  /** Threads at most (default: one a core, two to four). */
  size?: number;
  /** Each thread's heap limits: one that reaches them ends, as any crash (tests). */
  resourceLimits?: ResourceLimits;
};

/**
 * Threads at most: one more than the cores (a thread waits for the server's thread between a read's
 * statements, and another can use the core meanwhile), two to four.
 */
const DEFAULT_SIZE = Math.min(4, Math.max(2, os.availableParallelism() + 1));

/** The worker's module: its source beside this one, or its bundle beside the built server. */
function workerEntry(): string {
  const here = fileURLToPath(import.meta.url);
  return path.join(path.dirname(here), `sqlite-read-worker${here.endsWith('.ts') ? '.ts' : '.js'}`);
}

class ReadThread implements DatabaseConnection {
  readonly worker: Worker;
  readonly ready: Promise<void>;
  stopped: ReadThreadStopped | undefined;
  private pending: { resolve: (reply: ReadReply) => void; reject: (error: Error) => void } | undefined;

  constructor(file: string, resourceLimits: ResourceLimits | undefined) {
    this.worker = new Worker(workerEntry(), { workerData: { file }, ...(resourceLimits ? { resourceLimits } : {}) });
    // Idle threads do not keep the process alive; one answering a statement does (its caller waits).
    this.worker.unref();
    let started: () => void;
    let failed: (error: Error) => void;
    this.ready = new Promise<void>((resolve, reject) => ([started, failed] = [resolve, reject]));
    this.ready.catch(() => undefined); // a thread that never started fails its first statement instead
    this.worker.on('message', (message: ReadReply | { ready: true }) => {
      if ('ready' in message) return started();
      const pending = this.pending;
      this.pending = undefined;
      this.worker.unref();
      pending?.resolve(message);
    });
    this.worker.on('error', (error) => this.stop(error.message));
    this.worker.on('exit', (code) => {
      this.stop(`exit code ${code}`);
      failed(this.stopped!);
    });
  }

  private stop(reason: string): void {
    this.stopped ??= new ReadThreadStopped(reason);
    const pending = this.pending;
    this.pending = undefined;
    pending?.reject(this.stopped);
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    // A rollback on a thread that has ended has nothing left to undo: its connection went with it.
    if (this.stopped) {
      if (query.sql === 'rollback') return { rows: [] };
      throw this.stopped;
    }
    const reply = await new Promise<ReadReply>((resolve, reject) => {
      this.pending = { resolve, reject };
      this.worker.ref();
      this.worker.postMessage({ sql: query.sql, parameters: query.parameters } satisfies ReadRequest);
    });
    if ('error' in reply) throw Object.assign(new Error(reply.error.message), reply.error);
    if ('changes' in reply) return { rows: [], numAffectedRows: BigInt(reply.changes), insertId: BigInt(reply.lastInsertRowid) };
    return { rows: reply.rows as R[] };
  }

  // eslint-disable-next-line require-yield -- no streaming of reads through the pool; the interface asks for a generator
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('the read pool does not stream');
  }
}

class ReadPoolDriver implements Driver {
  private threads: ReadThread[] = [];
  private idle: ReadThread[] = [];
  private waiting: ((thread: ReadThread) => void)[] = [];

  private readonly file: string;
  private readonly options: PoolOptions;

  constructor(file: string, options: PoolOptions) {
    this.file = file;
    this.options = options;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    this.forgetStopped();
    const thread =
      this.idle.pop() ??
      (this.threads.length < (this.options.size ?? DEFAULT_SIZE) ? this.start() : await new Promise<ReadThread>((resolve) => this.waiting.push(resolve)));
    await thread.ready.catch(() => undefined);
    return thread;
  }

  private start(): ReadThread {
    const thread = new ReadThread(this.file, this.options.resourceLimits);
    this.threads.push(thread);
    return thread;
  }

  private forgetStopped(): void {
    this.threads = this.threads.filter((t) => !t.stopped);
    this.idle = this.idle.filter((t) => !t.stopped);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const thread = connection as ReadThread;
    this.forgetStopped();
    const next = this.waiting.shift();
    if (!next) {
      if (!thread.stopped) this.idle.push(thread);
      return;
    }
    next(thread.stopped ? this.start() : thread);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async destroy(): Promise<void> {
    const threads = this.threads;
    this.threads = [];
    this.idle = [];
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }
}

/** A pool of read-only connections to the SQLite `file`, each on a thread of its own, started as reads need them. */
export function createSqliteReadPool(file: string, options: PoolOptions = {}): Kysely<Database> {
  const driver = new ReadPoolDriver(file, options);
  return new Kysely<Database>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => driver,
      createIntrospector: (kysely) => new SqliteIntrospector(kysely),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });
}
