import { sql } from 'kysely';
import type { Db, DbHandle } from './create-db.ts';

/** What the start-up check found: /healthz answers 503 with the reason, and /status shows it. */
export type DatabaseIntegrity = { ok: true; reason: null; checkedAt: string } | { ok: false; reason: string; checkedAt: string };

/**
 * A quick integrity check, run once at start, so a damaged database is reported instead of
 * answering 500s behind a green /healthz. SQLite: `PRAGMA quick_check` (every page and row format,
 * not the indexes' contents; seconds on gigabytes). PostgreSQL keeps its own files: a cheap read of
 * one row of each table in this installation's schema finds a table that is gone or unreadable.
 */
export async function checkDatabaseIntegrity(database: DbHandle, now: () => Date = () => new Date()): Promise<DatabaseIntegrity> {
  let problem: string | null;
  try {
    problem = database.dialect === 'sqlite' ? await sqliteQuickCheck(database) : await readEveryTable(database);
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
  }
  const checkedAt = now().toISOString();
  return problem === null ? { ok: true, reason: null, checkedAt } : { ok: false, reason: `Database integrity check failed: ${problem}`, checkedAt };
}

async function sqliteQuickCheck(database: DbHandle): Promise<string | null> {
  // At most the first few findings: a badly damaged file can list thousands.
  const { rows } = await sql<{ quick_check: string }>`pragma quick_check(5)`.execute(database.db);
  const findings = rows.map((row) => row.quick_check);
  return findings.length === 1 && findings[0] === 'ok' ? null : findings.join('; ');
}

async function readEveryTable(database: DbHandle): Promise<string | null> {
  // Only this installation's schema, asked of the catalogue for that schema alone: others on the same
  // server (pg-boss's, other installations') are not ours, and one dropped meanwhile must not fail the check.
  const { rows: tables } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables where table_schema = current_schema() order by table_name`.execute(database.db);
  for (const table of tables) {
    try {
      // Whole rows, so the columns are read, not only the row count.
      await sql`select * from ${sql.table(table.name)} limit 1`.execute(database.db);
    } catch (error) {
      return `table ${table.name}: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  return null;
}

/** Whether the database answers now (readiness: a lost connection or a full pool shows here). */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
