import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testConnectionOptions, testDatabaseKind } from '#tests/support/test-database.ts';
import { createDb } from './create-db.ts';
import { migrateToLatest } from './migrate.ts';
import { testSchemaName } from '../../../scripts/lib/test-schemas.ts';

const onPostgres = testDatabaseKind() === 'postgres';
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('the migrator on a PostgreSQL database shared with other schemas', () => {
  it.skipIf(!onPostgres)(
    'looks only at Parley’s own schema: another schema’s tables are not read, and migrating works beside them',
    async () => {
      const database = await createTestDatabase('postgres');
      cleanups.push(() => database.close());
      if (database.target.kind !== 'postgres') throw new Error('a PostgreSQL test database was asked for');
      const { url, schema } = database.target;
      // Another schema on the same server, with a table (as another application, or another test file, has);
      // left in place like the tests' own schemas, which go when the run ends (scripts/lib/test-schemas.ts).
      const other = testSchemaName('other');
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      cleanups.push(() => admin.end());
      await admin.query(`create schema ${other}; create table ${other}.decoy (id serial primary key, note text)`);

      await migrateToLatest(database.db);

      const tables = await database.db.introspection.getTables({ withInternalKyselyTables: true });
      expect(new Set(tables.map((table) => table.schema))).toEqual(new Set([schema]));
      expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(['meetings', 'kysely_migration', 'kysely_migration_lock']));
      expect(tables.map((table) => table.name)).not.toContain('decoy');
      // Without the internal tables unless asked; columns as Kysely describes them.
      const plain = await database.db.introspection.getTables();
      expect(plain.map((table) => table.name)).not.toContain('kysely_migration');
      const meetings = plain.find((table) => table.name === 'meetings')!;
      expect(meetings.columns.find((column) => column.name === 'id')).toMatchObject({ isNullable: false });

      // A second Parley in the other schema migrates from nothing beside the first: its own tables only.
      const second = createDb({ dialect: 'postgres', url }, { connectionOptions: testConnectionOptions(other) });
      cleanups.push(() => second.close());
      await migrateToLatest(second.db);
      const secondTables = await second.db.introspection.getTables();
      expect(secondTables.map((table) => table.name)).toEqual(expect.arrayContaining(['decoy', 'meetings']));
      expect(new Set(secondTables.map((table) => table.schema))).toEqual(new Set([other]));
      expect((await sql<{ n: number }>`select count(*)::int as n from kysely_migration`.execute(second.db)).rows[0]!.n).toBeGreaterThan(0);
    },
    120_000,
  );
});
