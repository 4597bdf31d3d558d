import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { createDeps } from '#server/deps.ts';
import { StatusResponseSchema } from '#shared/contracts/status.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { createTestDatabase, testDatabaseKind } from '#tests/support/test-database.ts';
import { createDb, type DbHandle } from './create-db.ts';
import { migrateToLatest } from './migrate.ts';

// The database's integrity is checked at start and reported: /healthz answers 503 with the reason
// and /status shows it, instead of a green /healthz in front of 500s. On SQLite the file is really
// damaged (garbage over pages of a table); on PostgreSQL, whose files are not ours to touch, one of
// the app's tables is replaced by a view that cannot be read.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const ENV = { NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: 'http://localhost:3000', AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' };

/** The real app on a database the test prepared (and damaged). */
async function startOn(database: DbHandle) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-integrity-'));
  const deps = await createDeps(loadConfig({ ...ENV, DATA_DIR: dataDir }), { database });
  const app = await buildApp(deps);
  await app.ready();
  cleanups.push(async () => {
    await app.close();
    await deps.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return app;
}

/** A SQLite file with the app's tables and a table of rows whose pages are then overwritten with garbage. */
async function damagedSqlite(): Promise<DbHandle> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-integrity-db-'));
  const file = path.join(dir, 'parley.db');
  const first = createDb({ dialect: 'sqlite', file });
  await migrateToLatest(first.db);
  await sql`create table archive (id integer primary key, body text not null)`.execute(first.db);
  for (let i = 0; i < 400; i++) await sql`insert into archive (body) values (${'x'.repeat(1000)})`.execute(first.db);
  await first.close(); // checkpoints the WAL into the file
  const pageSize = 4096;
  const pages = fs.statSync(file).size / pageSize;
  const fd = fs.openSync(file, 'r+');
  // The archive's rows fill the last pages: garbage over a run of them, as a torn disk write leaves it.
  for (let page = pages - 40; page < pages - 30; page++) fs.writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, page * pageSize);
  fs.closeSync(fd);
  const handle = createDb({ dialect: 'sqlite', file });
  cleanups.push(async () => {
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return handle;
}

async function damagedPostgres(): Promise<DbHandle> {
  const database = await createTestDatabase('postgres');
  cleanups.push(() => database.close());
  await migrateToLatest(database.db);
  await sql`alter table share_links rename to share_links_lost`.execute(database.db);
  await sql`create view share_links as select (1 / 0)::text as id`.execute(database.db);
  return database;
}

describe('the database integrity check', () => {
  let healthy: TestApp | undefined;
  afterEach(async () => {
    await healthy?.close();
    healthy = undefined;
  });

  it('a sound database: /healthz is ok and /status says so', async () => {
    healthy = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' } });
    const health = await healthy.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok', version: expect.any(String) });
    const { token } = await signUpUser(healthy.app, 'integrity');
    const status = await healthy.app.inject({ method: 'GET', url: '/api/v1/status', headers: { authorization: `Bearer ${token}` } });
    expect(StatusResponseSchema.parse(status.json()).database).toEqual({ ok: true, reason: null, checkedAt: expect.any(String) });
  });

  it('a damaged database: /healthz answers 503 with the reason, and /status shows it', async () => {
    const kind = testDatabaseKind();
    const app = await startOn(kind === 'sqlite' ? await damagedSqlite() : await damagedPostgres());

    const health = await app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(503);
    const body = health.json<{ status: string; reason: string }>();
    expect(body.status).toBe('error');
    expect(body.reason).toMatch(/^Database integrity check failed: /);
    if (kind === 'postgres') expect(body.reason).toContain('table share_links: division by zero');

    const { token } = await signUpUser(app, 'integrity', { samples: false });
    const status = await app.inject({ method: 'GET', url: '/api/v1/status', headers: { authorization: `Bearer ${token}` } });
    expect(StatusResponseSchema.parse(status.json()).database).toEqual({ ok: false, reason: body.reason, checkedAt: expect.any(String) });
  });
});
