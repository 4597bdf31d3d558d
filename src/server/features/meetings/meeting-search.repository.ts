import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db } from '#server/db/create-db.ts';
import { isPostgres } from '#server/db/dialect.ts';

/**
 * Full-text search over a meeting's title, summary and transcript: FTS5 on SQLite, a weighted
 * tsvector on PostgreSQL. A query is plain words, never search syntax: it is cut into letter/digit
 * tokens, all of which must match, the last one as a prefix (search-as-you-type).
 */
export function searchTokens(query: string): string[] {
  return (query.normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 16);
}

/** A condition on `meetings.id` / `meetings.search_vector`, or undefined when the query has no words. */
export function searchCondition(db: Db, query: string): Expression<SqlBool> | undefined {
  const tokens = searchTokens(query);
  if (tokens.length === 0) return undefined;
  if (isPostgres(db)) {
    const tsquery = tokens.map((t, i) => (i === tokens.length - 1 ? `${t}:*` : t)).join(' & ');
    return sql<SqlBool>`meetings.search_vector @@ to_tsquery('english', ${tsquery})`;
  }
  const match = tokens.map((t, i) => `"${t}"${i === tokens.length - 1 ? '*' : ''}`).join(' ');
  // Only the index is read: FTS rowids, then their meetings through meeting_search_rows' primary key.
  return sql<SqlBool>`meetings.id in (select meeting_id from meeting_search_rows where row in (select rowid from meeting_search where meeting_search match ${match}))`;
}

/** Rebuilds one meeting's index entry after its title, summary or transcript changed. */
export async function reindexMeeting(db: Db, meetingId: string): Promise<void> {
  if (isPostgres(db)) {
    await sql`
      update meetings set search_vector =
        setweight(to_tsvector('english', title), 'A') ||
        setweight(to_tsvector('english', coalesce(summary, '')), 'B') ||
        to_tsvector('english', coalesce((select string_agg(text, ' ' order by start_ms) from transcript_segments where meeting_id = ${meetingId}), ''))
      where id = ${meetingId}`.execute(db);
    return;
  }
  const meeting = await db.selectFrom('meetings').select(['title', 'summary']).where('id', '=', meetingId).executeTakeFirst();
  if (!meeting) return removeFromIndex(db, [meetingId]);
  const segments = await db.selectFrom('transcript_segments').select('text').where('meeting_id', '=', meetingId).orderBy('start_ms').execute();
  let mapping = await db.selectFrom('meeting_search_rows').select('row').where('meeting_id', '=', meetingId).executeTakeFirst();
  if (mapping) await db.deleteFrom('meeting_search').where('rowid', '=', mapping.row).execute();
  else mapping = await db.insertInto('meeting_search_rows').values({ meeting_id: meetingId }).returning('row').executeTakeFirstOrThrow();
  await db
    .insertInto('meeting_search')
    .values({ rowid: mapping.row, title: meeting.title, summary: meeting.summary ?? '', transcript: segments.map((s) => s.text).join(' ') })
    .execute();
}

export async function removeFromIndex(db: Db, meetingIds: string[]): Promise<void> {
  if (isPostgres(db) || meetingIds.length === 0) return; // the tsvector goes with the row
  const rows = db.selectFrom('meeting_search_rows').select('row').where('meeting_id', 'in', meetingIds);
  await db.deleteFrom('meeting_search').where('rowid', 'in', rows).execute();
  await db.deleteFrom('meeting_search_rows').where('meeting_id', 'in', meetingIds).execute();
}
