import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createDb, type DbHandle } from '#server/db/create-db.ts';
import { DATABASE_FREE_FILES } from './database-free-files.ts';
import { testSchemaName } from '../../scripts/lib/test-schemas.ts';

export type TestDatabaseKind = 'sqlite' | 'postgres';

/**
 * Where this run's migrated template lives (test-database-template.ts, the integration projects'
 * globalSetup, sets them before vitest starts the test processes, which inherit them). Unset (a
 * bench, a project without that setup): each database migrates itself.
 */
export const SQLITE_TEMPLATE_ENV = 'PARLEY_TEST_SQLITE_TEMPLATE';
/** A file holding the template schema's SQL (pg_dump), its schema's name written as TEMPLATE_SCHEMA_TOKEN. */
export const POSTGRES_TEMPLATE_ENV = 'PARLEY_TEST_POSTGRES_TEMPLATE';
export const TEMPLATE_SCHEMA_TOKEN = 'parley_test_template_schema';

/**
 * The libpq options of a test's connections: its schema, and PGOPTIONS (the integration-postgres
 * project sets synchronous_commit=off there, for pg-boss's and every other connection too), which
 * an explicit `options` would otherwise replace.
 */
export function testConnectionOptions(schema: string): string {
  return [`-c search_path=${schema}`, process.env.PGOPTIONS].filter(Boolean).join(' ');
}

/** Which database this test process runs on: set per vitest project (PARLEY_TEST_DB). */
export function testDatabaseKind(): TestDatabaseKind {
  return process.env.PARLEY_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
}

/**
 * A fresh, empty database for one test file: a temporary SQLite file, or a new schema inside
 * TEST_DATABASE_URL (left in place on close, dropped when the run ends: scripts/lib/test-schemas.ts).
 */
/** Where a test database lives, for a second process (a worker) to open the same one. */
export type TestDatabaseTarget = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; schema: string };

type CreateTestDatabaseOptions = {
  /**
   * Start from a copy of the run's migrated template (test-database-template.ts) where there is one,
   * rather than empty: for test apps, whose start migrates anyway. Tests of migrations start empty.
   */
  migrated?: boolean;
};

export async function createTestDatabase(
  kind: TestDatabaseKind = testDatabaseKind(),
  options: CreateTestDatabaseOptions = {},
): Promise<DbHandle & { target: TestDatabaseTarget }> {
  await refuseInDatabaseFreeFile();
  if (kind === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-test-'));
    const file = path.join(dir, 'test.db');
    const template = options.migrated ? process.env[SQLITE_TEMPLATE_ENV] : undefined;
    if (template) fs.copyFileSync(template, file);
    const handle = createDb({ dialect: 'sqlite', file });
    return {
      ...handle,
      target: { kind: 'sqlite', file },
      close: async () => {
        await handle.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('PARLEY_TEST_DB=postgres needs TEST_DATABASE_URL');
  const schema = testSchemaName('db');
  const template = options.migrated ? process.env[POSTGRES_TEMPLATE_ENV] : undefined;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    // The template's SQL creates the schema (and pg-boss's beside it); one round trip, one transaction.
    if (template) await admin.query(`BEGIN;\n${fs.readFileSync(template, 'utf8').replaceAll(TEMPLATE_SCHEMA_TOKEN, schema)}\nCOMMIT;`);
    else await admin.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await admin.end();
  }
  const handle = createDb({ dialect: 'postgres', url }, { connectionOptions: testConnectionOptions(schema) });
  return {
    ...handle,
    target: { kind: 'postgres', url, schema },
    // The schema is not dropped here but when the run ends (scripts/lib/test-schemas.ts). Dropping
    // it mid-run once failed other files whose migrator read every schema's catalogue ("schema … does
    // not exist"); Parley's reads only its own now (db/current-schema-introspector.ts), but pg-boss's
    // queries have not been checked for the same.
    close: () => handle.close(),
  };
}

/**
 * Fails when the test file running is one of DATABASE_FREE_FILES, which run on SQLite only: a database
 * opened there would never be tested on PostgreSQL. (Only under vitest: the benches open databases too.)
 */
async function refuseInDatabaseFreeFile(): Promise<void> {
  if (!process.env.VITEST) return;
  const { expect } = await import('vitest');
  const file = expect.getState().testPath;
  const listed = file && DATABASE_FREE_FILES.find((listedFile) => file.endsWith(`/${listedFile}`));
  if (listed)
    throw new Error(`${listed} opens a database but is listed in tests/support/database-free-files.ts: take it off that list, so it runs on PostgreSQL too`);
}
