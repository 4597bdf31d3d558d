// The PostgreSQL schemas integration tests make (tests/support/test-database.ts: parley_test_<id> and
// its pg-boss schema parley_test_<id>_pgboss) are left in place when a test file ends (why: the
// comment in test-database.ts). npm test drops earlier runs' schemas here, before any test starts, so
// nothing is reading the catalogue meanwhile.
/** Drops every parley_test_* schema in the database at `url`; resolves with how many went. */
export async function dropTestSchemas(url) {
  // Imported here, not at the top: npm test installs the npm packages after loading this module.
  const { default: pg } = await import('pg');
  // Each drop commits alone, and none needs to wait for the disk: a run leaves hundreds of schemas.
  const client = new pg.Client({ connectionString: url, options: '-c synchronous_commit=off' });
  await client.connect();
  try {
    const { rows } = await client.query(`select nspname from pg_namespace where nspname like 'parley\\_test\\_%'`);
    for (const { nspname } of rows) await client.query(`drop schema if exists "${nspname}" cascade`);
    return rows.length;
  } finally {
    await client.end();
  }
}
