import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import type { TestProject } from 'vitest/node';
import { createDb } from '#server/db/create-db.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import { POSTGRES_TEMPLATE_ENV, SQLITE_TEMPLATE_ENV, TEMPLATE_SCHEMA_TOKEN, testConnectionOptions } from './test-database.ts';
import { holdTestRun, testSchemaName } from '../../scripts/lib/test-schemas.ts';

/**
 * Migrates one database per run, then every test app starts from a copy of it: a SQLite file copied,
 * or on PostgreSQL the template schema's SQL (pg_dump of Parley's schema and pg-boss's beside it)
 * replayed into a new schema in one round trip, rather than running every migration and pg-boss's
 * install for each of the hundreds of test apps (Kysely's migrator, PostgreSQL's DDL); the copy is the same schema, so what the tests see does not change, and the server still runs its
 * migrator at start (finding nothing to do), as on any restart.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-test-template-'));
  const onPostgres = project.config.env?.PARLEY_TEST_DB === 'postgres';
  const url = process.env.TEST_DATABASE_URL;
  let run: { release: () => Promise<void> } | undefined;
  if (onPostgres && url) {
    // Before any schema is made: this run's are then kept by the next npm test to start beside it.
    run = await holdTestRun(url);
    const dump = await postgresTemplate(url);
    if (dump !== undefined) {
      const file = path.join(dir, 'template.sql');
      fs.writeFileSync(file, dump);
      process.env[POSTGRES_TEMPLATE_ENV] = file;
    }
  } else if (!onPostgres) {
    const file = path.join(dir, 'template.db');
    const handle = createDb({ dialect: 'sqlite', file });
    await migrateToLatest(handle.db);
    // Closing the only connection checkpoints the WAL into the file: a copy of it alone is whole.
    await handle.close();
    process.env[SQLITE_TEMPLATE_ENV] = file;
  }
  return async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await run?.release();
  };
}

/**
 * Parley's schema migrated and pg-boss installed beside it, dumped as SQL with the schema's name
 * replaced by TEMPLATE_SCHEMA_TOKEN; undefined without pg_dump (each test database then migrates itself).
 */
async function postgresTemplate(url: string): Promise<string | undefined> {
  try {
    execFileSync('pg_dump', ['--version'], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  // Dropped with this run's other test schemas when the run ends (scripts/lib/test-schemas.ts).
  const schema = testSchemaName('template');
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const handle = createDb({ dialect: 'postgres', url }, { connectionOptions: testConnectionOptions(schema) });
  await migrateToLatest(handle.db);
  await handle.close();
  // The schema name src/server/jobs/create-job-queue.ts gives pg-boss beside a schema other than public.
  const boss = new PgBoss({ connectionString: url, schema: `${schema}_pgboss`, schedule: false, supervise: false });
  await boss.start();
  await boss.stop();
  const sql = execFileSync('pg_dump', ['--dbname', url, '--schema', schema, '--schema', `${schema}_pgboss`, '--no-owner', '--no-privileges', '--inserts'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  // pg_dump writes every name schema-qualified (it empties search_path for its statements). Its psql
  // meta-commands (\restrict, since PostgreSQL 15.14) are for psql, not for a query.
  return sql.replace(/^\\.*$/gm, '').replaceAll(schema, TEMPLATE_SCHEMA_TOKEN);
}
