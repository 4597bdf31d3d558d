import { PostgresAdapter, type Kysely } from 'kysely';

/** Which SQL dialect a Kysely instance speaks, for the few places (search, migrations) where they differ. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
