import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';

/**
 * A recording's size in bytes outgrows PostgreSQL's 4-byte integer at 2 GiB (UPLOAD_MAX_MB allows
 * 10 GiB): 8 bytes there. SQLite's integers are 8 bytes already.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await sql`alter table meetings alter column audio_bytes type bigint`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await sql`alter table meetings alter column audio_bytes type integer`.execute(db);
}
