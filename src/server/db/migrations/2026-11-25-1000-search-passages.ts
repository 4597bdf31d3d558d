import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';

/**
 * Search that answers in milliseconds and says why a meeting matched (issue 14).
 *
 * Two indexes instead of one:
 * - a meeting document (title, people, notes, transcript) decides which meetings match. On SQLite
 *   its FTS5 rowid is `doc`, the meeting's start in milliseconds × 1024 (+ a tie-breaker), so the
 *   index itself is in newest-first order: a search reads the newest matches and stops at the page's
 *   end instead of collecting, joining and sorting every match (a word every meeting holds cost the
 *   same as a rare one), and a date range is a rowid range. On PostgreSQL the weighted tsvector on
 *   `meetings` gains people and notes; the (owner, started_at) index gives the same early stop.
 * - passages (each transcript segment with its speaker, the summary, each action item and
 *   decision) show a hit: the page's meetings' best passages, highlighted, with the moment. On SQLite
 *   an FTS5 table keeping its text (highlighting needs it) whose rowids are `row` × 2^20 + position, so
 *   one meeting's passages are a rowid range; on PostgreSQL a table with a tsvector per passage.
 *   Positions: segments from 0, the summary at 2^19, notes items after it.
 *
 * Every existing meeting is indexed here (backfill). The runtime's reindexing is in
 * features/meetings/meeting-search.repository.ts; this file is a frozen copy of it as of today.
 */
// Written into the SQL as literals: a bound JS number is a REAL, and a REAL rowid costs FTS5 dearly.
const PER_MEETING = 1_048_576; // 2^20
const SUMMARY = 524_288; // 2^19

/** PostgreSQL: rewritten here (every meeting's tsvector) or filled whole, so vacuumed after (migrate.ts). */
export const vacuumAfter = ['meetings', 'meeting_search_passages'];

export async function up(db: Kysely<any>): Promise<void> {
  await coveringIndexes(db);
  if (isPostgres(db)) return upPostgres(db);
  // One transaction (Kysely runs SQLite's migrations without one): a start stopped halfway leaves the old index whole.
  await db.transaction().execute(upSqlite);
}

/**
 * The list's own indexes cover what it reads: the newest page and the count of a participant's
 * meetings come from two index scans (owner → start, id; name → meeting) without reading a row
 * (at 10,000 meetings the participant filter read every meeting's row: 35 ms → under 15).
 */
async function coveringIndexes(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('meetings_owner_started_id_idx').on('meetings').columns(['owner_id', 'started_at', 'id']).execute();
  await db.schema.dropIndex('meetings_owner_started_idx').execute();
  await db.schema.createIndex('meeting_participants_name_meeting_idx').on('meeting_participants').columns(['name_lower', 'meeting_id']).execute();
  await db.schema.dropIndex('meeting_participants_name_idx').execute();
}

async function upSqlite(db: Kysely<any>): Promise<void> {
  await sql`drop table meeting_search`.execute(db);
  await sql`drop table meeting_search_rows`.execute(db);
  await sql`create table meeting_search_docs (
    row integer primary key,
    meeting_id text not null unique references meetings (id) on delete cascade,
    doc integer not null unique
  )`.execute(db);
  await sql`create virtual table meeting_search using fts5(title, people, notes, transcript, tokenize = 'porter unicode61', content = '', contentless_delete = 1)`.execute(
    db,
  );
  // Relevance (an option): a title hit weighs most, then people and notes, then the transcript.
  await sql`insert into meeting_search (meeting_search, rank) values ('rank', 'bm25(10.0, 5.0, 3.0, 1.0)')`.execute(db);
  await sql`create virtual table passage_search using fts5(speaker, text, kind unindexed, ref unindexed, start_ms unindexed, tokenize = 'porter unicode61')`.execute(
    db,
  );

  const meetings = (await sql<{ id: string; started_at: string }>`select id, started_at from meetings order by started_at, id`.execute(db)).rows;
  const taken = new Set<number>();
  const docs = meetings.map((m) => {
    let doc = Math.floor(Date.parse(m.started_at) || 0) * 1024;
    while (taken.has(doc)) doc++;
    taken.add(doc);
    return { meeting_id: m.id, doc };
  });
  for (let i = 0; i < docs.length; i += 300)
    await db
      .insertInto('meeting_search_docs')
      .values(docs.slice(i, i + 300))
      .execute();

  await sql`insert into passage_search (rowid, speaker, text, kind, ref, start_ms)
    select row * ${sql.lit(PER_MEETING)} + n, speaker, text, 'transcript', id, start_ms from (
      select d.row, s.id, s.text, s.start_ms, coalesce(sp.display_name, sp.label, '') as speaker,
        row_number() over (partition by s.meeting_id order by s.start_ms, s.id) - 1 as n
      from transcript_segments s
      join meeting_search_docs d on d.meeting_id = s.meeting_id
      left join meeting_speakers sp on sp.id = s.speaker_id
    ) where n < ${sql.lit(SUMMARY)}`.execute(db);
  await sql`insert into passage_search (rowid, speaker, text, kind, ref, start_ms)
    select d.row * ${sql.lit(PER_MEETING)} + ${sql.lit(SUMMARY)}, '', m.summary, 'summary', null, null
    from meetings m join meeting_search_docs d on d.meeting_id = m.id
    where m.summary is not null and trim(m.summary) != ''`.execute(db);
  await sql`insert into passage_search (rowid, speaker, text, kind, ref, start_ms)
    select d.row * ${sql.lit(PER_MEETING)} + ${sql.lit(SUMMARY)} + row_number() over (partition by i.meeting_id order by i.position, i.id),
      coalesce(i.assignee, ''), i.text, i.kind, i.id, i.start_ms
    from meeting_insights i join meeting_search_docs d on d.meeting_id = i.meeting_id
    where i.kind in ('action_item', 'decision') and i.status != 'dismissed'`.execute(db);

  await sql`insert into meeting_search (rowid, title, people, notes, transcript)
    select d.doc, m.title,
      coalesce((select group_concat(name, ' ') from meeting_participants p where p.meeting_id = m.id), ''),
      coalesce(m.summary, '') || ' ' || coalesce((select group_concat(text, ' ') from meeting_insights i
        where i.meeting_id = m.id and i.kind in ('action_item', 'decision') and i.status != 'dismissed'), ''),
      coalesce((select group_concat(text, ' ') from (select text from transcript_segments s where s.meeting_id = m.id order by s.start_ms, s.id)), '')
    from meeting_search_docs d join meetings m on m.id = d.meeting_id`.execute(db);
}

async function upPostgres(db: Kysely<any>): Promise<void> {
  await sql`create table meeting_search_passages (
    meeting_id text not null references meetings (id) on delete cascade,
    position integer not null,
    kind text not null,
    ref text,
    start_ms integer,
    speaker text not null,
    text text not null,
    vector tsvector not null,
    primary key (meeting_id, position)
  )`.execute(db);
  await sql`insert into meeting_search_passages (meeting_id, position, kind, ref, start_ms, speaker, text, vector)
    select meeting_id, n, 'transcript', id, start_ms, speaker, text,
      setweight(to_tsvector('english', speaker), 'B') || to_tsvector('english', text)
    from (
      select s.meeting_id, s.id, s.text, s.start_ms, coalesce(sp.display_name, sp.label, '') as speaker,
        (row_number() over (partition by s.meeting_id order by s.start_ms, s.id) - 1)::integer as n
      from transcript_segments s left join meeting_speakers sp on sp.id = s.speaker_id
    ) t where n < ${sql.lit(SUMMARY)}`.execute(db);
  await sql`insert into meeting_search_passages (meeting_id, position, kind, ref, start_ms, speaker, text, vector)
    select id, ${sql.lit(SUMMARY)}, 'summary', null, null, '', summary, to_tsvector('english', summary)
    from meetings where summary is not null and trim(summary) != ''`.execute(db);
  await sql`insert into meeting_search_passages (meeting_id, position, kind, ref, start_ms, speaker, text, vector)
    select meeting_id, ${sql.lit(SUMMARY)} + (row_number() over (partition by meeting_id order by position, id))::integer, kind, id, start_ms,
      coalesce(assignee, ''), text, setweight(to_tsvector('english', coalesce(assignee, '')), 'B') || to_tsvector('english', text)
    from meeting_insights where kind in ('action_item', 'decision') and status != 'dismissed'`.execute(db);
  await sql`update meetings m set search_vector =
    setweight(to_tsvector('english', m.title), 'A') ||
    setweight(to_tsvector('english', coalesce((select string_agg(name, ' ') from meeting_participants p where p.meeting_id = m.id), '')), 'B') ||
    setweight(to_tsvector('english', coalesce((select string_agg(text, ' ' order by position) from meeting_search_passages n where n.meeting_id = m.id and n.position >= ${sql.lit(SUMMARY)}), '')), 'B') ||
    to_tsvector('english', coalesce((select string_agg(text, ' ' order by start_ms, id) from transcript_segments s where s.meeting_id = m.id), ''))`.execute(
    db,
  );
  // Fresh statistics, so the planner weighs a word's frequency from the first search on (a word in
  // every meeting: newest-first through the owner index; a rare one: the GIN index).
  await sql`analyze meetings`.execute(db);
  await sql`analyze meeting_search_passages`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('meetings_owner_started_idx').on('meetings').columns(['owner_id', 'started_at']).execute();
  await db.schema.dropIndex('meetings_owner_started_id_idx').execute();
  await db.schema.createIndex('meeting_participants_name_idx').on('meeting_participants').column('name_lower').execute();
  await db.schema.dropIndex('meeting_participants_name_meeting_idx').execute();
  if (isPostgres(db)) {
    await sql`drop table meeting_search_passages`.execute(db);
    await sql`update meetings set search_vector =
      setweight(to_tsvector('english', title), 'A') ||
      setweight(to_tsvector('english', coalesce(summary, '')), 'B') ||
      to_tsvector('english', coalesce((select string_agg(text, ' ' order by start_ms) from transcript_segments s where s.meeting_id = meetings.id), ''))`.execute(
      db,
    );
    return;
  }
  await sql`drop table passage_search`.execute(db);
  await sql`drop table meeting_search`.execute(db);
  await sql`drop table meeting_search_docs`.execute(db);
  await sql`create table meeting_search_rows (
    row integer primary key,
    meeting_id text not null unique references meetings (id) on delete cascade
  )`.execute(db);
  await sql`create virtual table meeting_search using fts5(title, summary, transcript, tokenize = 'porter unicode61', content = '', contentless_delete = 1)`.execute(
    db,
  );
  await sql`insert into meeting_search_rows (meeting_id) select id from meetings`.execute(db);
  await sql`insert into meeting_search (rowid, title, summary, transcript)
    select r.row, m.title, coalesce(m.summary, ''),
      coalesce((select group_concat(text, ' ') from (select text from transcript_segments s where s.meeting_id = m.id order by s.start_ms)), '')
    from meeting_search_rows r join meetings m on m.id = r.meeting_id`.execute(db);
}
