// The PostgreSQL schemas integration tests make (tests/support/test-database.ts) are left in place
// when a test file ends (why: the comment there): each vitest run drops its own when it ends, and
// npm test drops those of earlier runs that could not (interrupted), before any test starts. Each
// run holds an advisory lock for as long as it goes (holdTestRun) and puts its number in its schemas'
// names: a schema whose run's lock nobody holds is left over, however recent; one of a run still
// going is kept. Left over, a run's hundreds of schemas slow the runs after it.
import crypto from 'node:crypto';
import pg from 'pg';

/** A schema whose name carries no run (a bench's, one made before names carried it) is left over this long after it was made. */
const LEFT_OVER_AFTER_MS = 2 * 60 * 60 * 1000;

/** The first key of the advisory locks test runs hold; the second is the run's number. */
const RUN_LOCK_CLASS = 0x7061726c;

/** Which run the schemas a test process makes belong to: set by holdTestRun, inherited by the test processes. */
const TEST_RUN_ENV = 'PARLEY_TEST_RUN';

/**
 * A new test schema's name: parley_test_<what>_<time made, base 36>[_r<run, base 36>]_<random>, at
 * most 43 characters, for pg-boss's beside it (the name and _pgboss) to keep within its 50.
 */
export function testSchemaName(what: 'db' | 'template' | 'other'): string {
  const run = process.env[TEST_RUN_ENV];
  return `parley_test_${what}_${Date.now().toString(36)}${run ? `_r${run}` : ''}_${crypto.randomBytes(3).toString('hex')}`;
}

/** When a test schema was made and by which run, from its name; nothing for a name without them. */
function partsOf(name: string): { madeAt?: number; run?: number } {
  const match = /^parley_test_[a-z]+_([0-9a-z]+)(?:_r([0-9a-z]+))?_[0-9a-f]+(?:_pgboss)?$/.exec(name);
  if (!match) return {};
  return { madeAt: parseInt(match[1]!, 36), run: match[2] === undefined ? undefined : parseInt(match[2], 36) };
}

/**
 * Of these test schemas, those no run still uses: a run's whose lock is not held (`liveRuns` are the
 * runs whose lock is), or, without a run in the name, made over LEFT_OVER_AFTER_MS before `now` or of unknown age.
 */
export function leftOverSchemas(names: readonly string[], now: number, liveRuns: ReadonlySet<number>): string[] {
  return names.filter((name) => {
    const { madeAt, run } = partsOf(name);
    if (run !== undefined) return !liveRuns.has(run);
    return now - (madeAt ?? 0) >= LEFT_OVER_AFTER_MS;
  });
}

/** The names of the parley_test_* schemas in the client's database. */
async function testSchemas(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ nspname: string }>(`select nspname from pg_namespace where nspname like 'parley\\_test\\_%'`);
  return rows.map((row) => row.nspname);
}

const dropSchemas = async (client: pg.Client, names: readonly string[]) => {
  for (const name of names) await client.query(`drop schema if exists "${name}" cascade`);
};

/** Drops the parley_test_* schemas in the database at `url` that no run still uses; resolves with how many went. */
export async function dropTestSchemas(url: string, now = Date.now()): Promise<number> {
  // Each drop commits alone, and none needs to wait for the disk: a run leaves hundreds of schemas.
  const client = new pg.Client({ connectionString: url, options: '-c synchronous_commit=off' });
  await client.connect();
  try {
    const names = await testSchemas(client);
    const locks = await client.query<{ objid: string }>(
      `select objid from pg_locks where locktype = 'advisory' and granted and classid = $1 and objsubid = 2`,
      [RUN_LOCK_CLASS],
    );
    const leftOver = leftOverSchemas(names, now, new Set(locks.rows.map((row) => Number(row.objid))));
    await dropSchemas(client, leftOver);
    return leftOver.length;
  } finally {
    await client.end();
  }
}

/**
 * Marks the schemas this process and the test processes it starts make as this run's, and holds the
 * run's lock on the database at `url` until `release` drops them (or this process ends, which
 * closes the connection: the next dropTestSchemas takes them).
 */
export async function holdTestRun(url: string): Promise<{ release: () => Promise<void> }> {
  // Four base-36 digits: the name keeps within its length.
  const run = crypto.randomInt(36 ** 3, 36 ** 4);
  const client = new pg.Client({ connectionString: url, options: '-c synchronous_commit=off' });
  await client.connect();
  await client.query('select pg_advisory_lock($1, $2)', [RUN_LOCK_CLASS, run]);
  process.env[TEST_RUN_ENV] = run.toString(36);
  return {
    release: async () => {
      try {
        await dropSchemas(
          client,
          (await testSchemas(client)).filter((name) => partsOf(name).run === run),
        );
      } finally {
        await client.end();
      }
    },
  };
}
