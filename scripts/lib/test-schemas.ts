// The PostgreSQL schemas integration tests make (tests/support/test-database.ts) are left in place
// when a test file ends (why: the comment there). npm test drops earlier runs' schemas here, before
// any test starts. Each name carries the time it was made (testSchemaName), so a run drops only
// schemas old enough that no run still uses them: another `npm test` on the same database, begun a
// minute earlier, keeps its own.
import crypto from 'node:crypto';
import pg from 'pg';

/** No test run lasts this long: a schema older than this is left over. */
const LEFT_OVER_AFTER_MS = 2 * 60 * 60 * 1000;

/** A new test schema's name: parley_test_<what>_<time made, base 36>_<random>. */
export function testSchemaName(what: 'db' | 'template' | 'other'): string {
  return `parley_test_${what}_${Date.now().toString(36)}_${crypto.randomBytes(4).toString('hex')}`;
}

/** When a test schema was made, from its name; undefined for a name without it (made before names carried it). */
function madeAt(name: string): number | undefined {
  const time = /^parley_test_[a-z]+_([0-9a-z]+)_[0-9a-f]+(?:_pgboss)?$/.exec(name)?.[1];
  return time === undefined ? undefined : parseInt(time, 36);
}

/** Of these test schemas, those no run still uses: made over LEFT_OVER_AFTER_MS before `now`, or of unknown age. */
export function leftOverSchemas(names: readonly string[], now: number): string[] {
  return names.filter((name) => now - (madeAt(name) ?? 0) >= LEFT_OVER_AFTER_MS);
}

/** Drops the parley_test_* schemas in the database at `url` that no run still uses; resolves with how many went. */
export async function dropTestSchemas(url: string, now = Date.now()): Promise<number> {
  // Each drop commits alone, and none needs to wait for the disk: a run leaves hundreds of schemas.
  const client = new pg.Client({ connectionString: url, options: '-c synchronous_commit=off' });
  await client.connect();
  try {
    const { rows } = await client.query<{ nspname: string }>(`select nspname from pg_namespace where nspname like 'parley\\_test\\_%'`);
    const leftOver = leftOverSchemas(
      rows.map((row) => row.nspname),
      now,
    );
    for (const name of leftOver) await client.query(`drop schema if exists "${name}" cascade`);
    return leftOver.length;
  } finally {
    await client.end();
  }
}
