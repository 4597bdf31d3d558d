import { PostgresAdapter, sql, type Kysely } from 'kysely';

/** Which SQL dialect a Kysely instance speaks, for the few places (search, migrations) where they differ. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** PostgreSQL's current schema for this connection (`public` unless a search_path says otherwise). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function currentSchema(db: Kysely<any>): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema ?? 'public';
}
