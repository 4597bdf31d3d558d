import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { inTransaction } from '#server/db/transaction.ts';
import { sql, type Expression, type Selectable, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Database } from '#server/db/database.ts';
import { SEARCH_COUNT_LIMIT, type SearchMatch, type SearchMatchKind, type SearchSort } from '#shared/contracts/meetings.ts';
import type { Db } from '#server/db/create-db.ts';
import { isPostgres } from '#server/db/dialect.ts';
import { readableBy, type MeetingReader } from './meeting-access.ts';
import { MEETING_COLUMNS, type MeetingsTable } from './meetings.table.ts';

/**
 * Search over meetings (migration 2026-11-25-1000 explains the two indexes):
 * - which meetings match: every word in the meeting's document (title, people, notes, transcript),
 *   the last one as a prefix (search-as-you-type); newest first, read from an index already in that
 *   order so a page costs the same whether a word is in ten meetings or in all of them; relevance
 *   (bm25 / ts_rank) as an option;
 * - why: the page's meetings' best passages (any of the words), with the words marked.
 * A query is plain words, never search syntax: it is cut into letter/digit tokens.
 */
export function searchTokens(query: string): string[] {
  return (query.normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 16);
}

/** Transcript passages indexed in one statement (SQLite). */
const PASSAGE_SLICE = 2_000;

/** Passage rowids/positions: a meeting's segments from 0, its summary at 2^19, notes items after it. */
const PER_MEETING = 1_048_576;
const SUMMARY = 524_288;
/** What the engines put around a matched word in a snippet: private-use characters, never HTML. */
const MARK_START = '\uE000';
const MARK_END = '\uE001';

const ftsAll = (tokens: string[]) => tokens.map((t, i) => `"${t}"${i === tokens.length - 1 ? '*' : ''}`).join(' ');
const ftsAny = (tokens: string[]) => tokens.map((t, i) => `"${t}"${i === tokens.length - 1 ? '*' : ''}`).join(' OR ');
const tsAll = (tokens: string[]) => tokens.map((t, i) => (i === tokens.length - 1 ? `${t}:*` : t)).join(' & ');
const tsAny = (tokens: string[]) => tokens.map((t, i) => (i === tokens.length - 1 ? `${t}:*` : t)).join(' | ');

type MeetingRow = Selectable<MeetingsTable>;
export type MeetingSearchPage = { rows: MeetingRow[]; total: number; totalIsAtLeast: boolean };

/**
 * One page of the meetings matching `tokens` among those `filters` (visibility first) allow. The
 * total is counted up to SEARCH_COUNT_LIMIT: past it, a count would read every match, the cost the
 * newest-first order exists to avoid.
 */
export async function searchMeetings(db: Db, filters: Expression<SqlBool>[], tokens: string[], options: SearchOptions): Promise<MeetingSearchPage> {
  return isPostgres(db) ? postgresSearch(db, filters, tokens, options) : sqliteSearch(db, filters, tokens, options);
}

type SearchOptions = { sort: SearchSort; from?: string; to?: string; page: number; pageSize: number };

/** How many of a search's matches there are, counted up to just past SEARCH_COUNT_LIMIT. */
async function countUpToLimit(db: Db, matches: SelectQueryBuilder<Database, 'meetings', object>): Promise<number> {
  const counted = await db
    .selectFrom(
      matches
        .select(sql<number>`1`.as('one'))
        .limit(SEARCH_COUNT_LIMIT + 1)
        .as('hits'),
    )
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .executeTakeFirst();
  return Number(counted?.total ?? 0);
}

const pageOf = (rows: MeetingRow[], total: number): MeetingSearchPage => ({
  rows,
  total: Math.min(total, SEARCH_COUNT_LIMIT),
  totalIsAtLeast: total > SEARCH_COUNT_LIMIT,
});

async function sqliteSearch(db: Db, filters: Expression<SqlBool>[], tokens: string[], options: SearchOptions): Promise<MeetingSearchPage> {
  // The rowid range is the date range in the documents' own order (start ms × 1024).
  const low = options.from ? Date.parse(`${options.from}T00:00:00.000Z`) * 1024 : Number.MIN_SAFE_INTEGER;
  const high = options.to ? (Date.parse(`${options.to}T23:59:59.999Z`) + 1) * 1024 - 1 : Number.MAX_SAFE_INTEGER;
  // CROSS JOIN: SQLite keeps the index as the outer loop, read newest first and stopped at the page's
  // end. Left to choose, it started from the meetings' own (owner, start) index when a date range
  // allowed one and then asked the full-text index once per meeting, each time merging the prefix
  // word's every posting (a six-month range at 2,000 meetings: 500 ms instead of 2).
  const base = db
    .selectFrom('meeting_search as f')
    .crossJoin('meeting_search_docs as d')
    .crossJoin('meetings')
    .whereRef('d.doc', '=', 'f.rowid')
    .whereRef('meetings.id', '=', 'd.meeting_id')
    .where(sql<SqlBool>`f.meeting_search match ${ftsAll(tokens)}`)
    .where(sql<SqlBool>`f.rowid between cast(${low} as integer) and cast(${high} as integer)`)
    .where((eb) => eb.and(filters));
  const [rows, total] = await Promise.all([
    base
      .orderBy(options.sort === 'relevance' ? sql`f.rank` : sql`f.rowid desc`)
      .select(MEETING_COLUMNS)
      .limit(options.pageSize)
      .offset((options.page - 1) * options.pageSize)
      .execute(),
    countUpToLimit(db, base),
  ]);
  return pageOf(rows, total);
}

/** PostgreSQL planner settings for the rest of the current transaction. */
const plannerSettings = (db: Db, settings: Record<string, 'on' | 'off'>) =>
  sql`select ${sql.join(Object.entries(settings).map(([name, value]) => sql`set_config(${name}, ${value}, true)`))}`.execute(db);

/**
 * PostgreSQL: the meeting's tsvector holds its whole transcript and is stored out of line, so every
 * row a plan tests costs a detoast the planner does not count. Left to itself it read the meetings
 * newest first and tested each one whatever the word (a rare word: all 10,000 read, 200 ms), or
 * scanned the table for a count or a date range (150–400 ms). So the search chooses, in its own
 * transaction: the count from the GIN index alone (up to 1,001 rows: ~1 ms); then, for a word in
 * more meetings than that, newest first through the (owner, started_at) index, which meets a page of
 * matches within a few dozen rows; for fewer, the matches from the GIN index, sorted (at most 1,000).
 */
async function postgresSearch(db: Db, filters: Expression<SqlBool>[], tokens: string[], options: SearchOptions): Promise<MeetingSearchPage> {
  return inTransaction(db, async (trx) => {
    const query = sql`to_tsquery('english', ${tsAll(tokens)})`;
    const base = trx
      .selectFrom('meetings')
      .where((eb) => eb.and(filters))
      .where(sql<SqlBool>`meetings.search_vector @@ ${query}`);
    await plannerSettings(trx, { enable_seqscan: 'off', enable_indexscan: 'off' });
    const total = await countUpToLimit(trx, base);
    if (total === 0) return pageOf([], 0);
    const page = { limit: options.pageSize, offset: (options.page - 1) * options.pageSize };
    if (options.sort === 'newest' || total <= SEARCH_COUNT_LIMIT) {
      if (options.sort === 'newest' && total > SEARCH_COUNT_LIMIT) await plannerSettings(trx, { enable_indexscan: 'on', enable_bitmapscan: 'off' });
      const ordered =
        options.sort === 'relevance'
          ? base.orderBy(sql`ts_rank(meetings.search_vector, ${query})`, 'desc').orderBy('meetings.started_at', 'desc')
          : base.orderBy('meetings.started_at', 'desc').orderBy('meetings.id', 'desc');
      return pageOf(await ordered.select(MEETING_COLUMNS).limit(page.limit).offset(page.offset).execute(), total);
    }
    // Best match first among more than SEARCH_COUNT_LIMIT matches: ranked among the newest of them,
    // as many as the total counts. Ranking every match detoasts every matching meeting's transcript
    // (10,000: 80-170 ms); the newest are found through the (owner, started_at) index.
    await plannerSettings(trx, { enable_indexscan: 'on', enable_bitmapscan: 'off' });
    const newest = base
      .select([...MEETING_COLUMNS, sql<number>`ts_rank(meetings.search_vector, ${query})`.as('score')])
      .orderBy('meetings.started_at', 'desc')
      .orderBy('meetings.id', 'desc')
      .limit(SEARCH_COUNT_LIMIT + 1)
      .as('newest');
    const ranked = await trx
      .selectFrom(newest)
      .selectAll()
      .orderBy('newest.score', 'desc')
      .orderBy('newest.started_at', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return pageOf(
      ranked.map(({ score: _score, ...row }) => row),
      total,
    );
  });
}

type PassageRow = { meeting_id: string; kind: string; ref: string | null; start_ms: number | string | null; speaker: string; snippet: string };

/** A snippet with the engine's marks as parts: matched words (`match`) and the text between. */
export function snippetParts(marked: string): SearchMatch['snippet'] {
  const parts: SearchMatch['snippet'] = [];
  for (const [i, piece] of marked.split(MARK_START).entries()) {
    const end = i === 0 ? -1 : piece.indexOf(MARK_END);
    if (end >= 0) {
      if (end > 0) parts.push({ text: piece.slice(0, end), match: true });
      const rest = piece.slice(end + 1).replaceAll(MARK_END, '');
      if (rest) parts.push({ text: rest, match: false });
    } else if (piece) parts.push({ text: piece.replaceAll(MARK_END, ''), match: false });
  }
  return parts;
}

const KINDS: readonly string[] = ['transcript', 'summary', 'action_item', 'decision'] satisfies SearchMatchKind[];

function presentPassage(row: PassageRow): SearchMatch {
  const kind = (KINDS.includes(row.kind) ? row.kind : 'transcript') as SearchMatchKind;
  return {
    kind,
    segmentId: kind === 'transcript' ? row.ref : null,
    speaker: row.speaker || null,
    startMs: row.start_ms === null ? null : Math.max(0, Number(row.start_ms)),
    snippet: snippetParts(row.snippet),
  };
}

/**
 * Which passages show why a meeting matched: greedily, the one holding most of the words not yet
 * shown (then most words, then the earliest), so every word gets a passage when `limit` allows;
 * answered in transcript order. A passage ranking (bm25) would read each word's whole list across
 * all meetings for its statistics: 15–25 ms at a million passages, for nothing a person sees.
 */
export function choosePassages<K>(candidates: Map<K, Set<number>>, order: K[], limit: number): K[] {
  const chosen: K[] = [];
  const shown = new Set<number>();
  const left = [...order];
  while (chosen.length < limit && left.length > 0) {
    let best = 0;
    let bestScore = [-1, -1];
    for (const [i, key] of left.entries()) {
      const words = candidates.get(key) ?? new Set<number>();
      const score = [[...words].filter((w) => !shown.has(w)).length, words.size];
      if (score[0]! > bestScore[0]! || (score[0] === bestScore[0] && score[1]! > bestScore[1]!)) [best, bestScore] = [i, score];
    }
    const [key] = left.splice(best, 1);
    chosen.push(key as K);
    for (const w of candidates.get(key as K) ?? []) shown.add(w);
  }
  return chosen.sort((a, b) => order.indexOf(a) - order.indexOf(b));
}

/** A token as a one-word query, the last one as a prefix (the query's own reading). */
const tokenQueries = (tokens: string[], fts: boolean) => tokens.map((t, i) => (i === tokens.length - 1 ? (fts ? `"${t}"*` : `${t}:*`) : fts ? `"${t}"` : t));

/** SQLite: a rowid range bound as integers (FTS5 scans the whole index for a REAL bound: 0.1 ms → 45 ms). */
const rowidBetween = (low: number, high: number) => sql<SqlBool>`rowid between cast(${low} as integer) and cast(${high} as integer)`;

/**
 * The passages of these meetings that hold any of the words: per meeting up to `perMeeting` chosen
 * to show every word (`order: 'rank'`, a result's snippets), or the first in transcript order
 * (`order: 'time'`, a search inside one meeting).
 */
export async function passagesMatching(
  db: Db,
  meetingIds: string[],
  tokens: string[],
  options: { perMeeting: number; order: 'rank' | 'time' },
): Promise<Map<string, SearchMatch[]>> {
  const byMeeting = new Map<string, SearchMatch[]>(meetingIds.map((id) => [id, []]));
  if (meetingIds.length === 0 || tokens.length === 0) return byMeeting;
  const rows = isPostgres(db) ? await postgresPassages(db, meetingIds, tokens, options) : await sqlitePassages(db, meetingIds, tokens, options);
  for (const row of rows) byMeeting.get(row.meeting_id)?.push(presentPassage(row));
  return byMeeting;
}

type PassageOptions = { perMeeting: number; order: 'rank' | 'time' };

/**
 * SQLite: the page's passages are copied into a scratch FTS5 table (temp, this connection's own)
 * and matched there. In the whole passage index a prefix query (the last word always is one) merges
 * that prefix's every posting across all meetings before a rowid range can narrow it, a cost that
 * grows with everyone's history, and a page asked it four times per meeting. The scratch table
 * holds a page's thousand-odd passages, so each query there costs microseconds; the copy is read by
 * rowid ranges (no full-text query) and is discarded by rolling back, so the same tokenizer and
 * snippet function answer as before, with nothing to clean up (and no column sizes: nothing here
 * ranks), so a page's cost does not grow with the history. The transaction holds the one
 * connection, so no other request sees or empties the table meanwhile.
 */
async function sqlitePassages(db: Db, meetingIds: string[], tokens: string[], options: PassageOptions): Promise<PassageRow[]> {
  const docs = await db.selectFrom('meeting_search_docs').select(['meeting_id', 'row']).where('meeting_id', 'in', meetingIds).execute();
  if (docs.length === 0) return [];
  const meetingOf = new Map(docs.map((d) => [d.row, d.meeting_id]));
  const trx = await db.startTransaction().execute();
  try {
    await sql`create virtual table if not exists temp.passage_page using fts5(speaker, text, kind unindexed, ref unindexed, start_ms unindexed, tokenize = 'porter unicode61', columnsize = 0)`.execute(
      trx,
    );
    // One statement for the page (at most 100 meetings, within SQLite's 500 compound selects): a
    // statement per meeting cost a round trip each where reads run on a thread of their own.
    const copies = docs.map(
      ({ row }) =>
        sql`select rowid, speaker, text, kind, ref, start_ms from main.passage_search where ${rowidBetween(row * PER_MEETING, row * PER_MEETING + PER_MEETING - 1)}`,
    );
    await sql`insert into temp.passage_page (rowid, speaker, text, kind, ref, start_ms) ${sql.join(copies, sql` union all `)}`.execute(trx);
    const shown = async (where: Expression<SqlBool>, limit = -1) =>
      (
        await sql<Omit<PassageRow, 'meeting_id'> & { rowid: number }>`
          select rowid, kind, ref, start_ms, speaker, snippet(passage_page, 1, ${MARK_START}, ${MARK_END}, '…', 24) as snippet
          from temp.passage_page where passage_page match ${ftsAny(tokens)} and ${where} order by rowid limit ${limit}`.execute(trx)
      ).rows.map(({ rowid, ...r }) => ({ ...r, meeting_id: meetingOf.get(Math.floor(rowid / PER_MEETING)) ?? '' }));
    if (options.order === 'time') {
      const rows: PassageRow[] = [];
      for (const { row } of docs) rows.push(...(await shown(rowidBetween(row * PER_MEETING, row * PER_MEETING + PER_MEETING - 1), options.perMeeting)));
      return rows;
    }
    // Which words each passage holds, one query per word over the whole page.
    const words = new Map<number, Map<number, Set<number>>>(docs.map((d) => [d.row, new Map()]));
    for (const [w, query] of tokenQueries(tokens, true).entries()) {
      const hits = await sql<{ rowid: number }>`select rowid from temp.passage_page where passage_page match ${query}`.execute(trx);
      for (const { rowid } of hits.rows) {
        const ofMeeting = words.get(Math.floor(rowid / PER_MEETING));
        ofMeeting?.set(rowid, (ofMeeting.get(rowid) ?? new Set()).add(w));
      }
    }
    const chosen = [...words.values()].flatMap((candidates) =>
      choosePassages(
        candidates,
        [...candidates.keys()].sort((a, b) => a - b),
        options.perMeeting,
      ),
    );
    if (chosen.length === 0) return [];
    return await shown(sql<SqlBool>`rowid in (${sql.join(chosen.map((rowid) => sql`cast(${rowid} as integer)`))})`);
  } finally {
    await trx.rollback().execute();
  }
}

async function postgresPassages(db: Db, meetingIds: string[], tokens: string[], options: PassageOptions): Promise<PassageRow[]> {
  const headline = (where: Expression<SqlBool>, limit: number) =>
    sql<PassageRow>`
      select meeting_id, kind, ref, start_ms, speaker,
        ts_headline('english', text, to_tsquery('english', ${tsAny(tokens)}), ${`StartSel=${MARK_START}, StopSel=${MARK_END}, MaxWords=30, MinWords=12, ShortWord=2`}) as snippet
      from meeting_search_passages
      where ${where}
      order by meeting_id, position
      limit ${limit}`.execute(db);
  const any = sql<SqlBool>`vector @@ to_tsquery('english', ${tsAny(tokens)})`;
  if (options.order === 'time') {
    return (await headline(sql<SqlBool>`meeting_id in (${sql.join(meetingIds)}) and ${any}`, options.perMeeting * meetingIds.length)).rows;
  }
  const flags = tokenQueries(tokens, false).map((query, w) => sql`vector @@ to_tsquery('english', ${query}) as ${sql.ref(`w${w}`)}`);
  const hits = await sql<Record<string, unknown> & { meeting_id: string; position: number }>`
    select meeting_id, position, ${sql.join(flags)} from meeting_search_passages
    where meeting_id in (${sql.join(meetingIds)}) and ${any}
    order by meeting_id, position`.execute(db);
  const chosen: Expression<SqlBool>[] = [];
  for (const id of meetingIds) {
    const words = new Map<number, Set<number>>();
    for (const hit of hits.rows.filter((h) => h.meeting_id === id)) {
      words.set(hit.position, new Set(tokens.flatMap((_, w) => (hit[`w${w}`] ? [w] : []))));
    }
    const positions = choosePassages(words, [...words.keys()], options.perMeeting);
    if (positions.length > 0) chosen.push(sql<SqlBool>`(meeting_id = ${id} and position in (${sql.join(positions)}))`);
  }
  if (chosen.length === 0) return [];
  return (await headline(sql<SqlBool>`(${sql.join(chosen, sql` or `)})`, chosen.length * options.perMeeting)).rows;
}

/** The notes items a meeting's search covers (the notes feature hands them over when it writes them). */
export type SearchableNote = { id: string; kind: 'action_item' | 'decision'; text: string; assignee: string | null; startMs: number };

/** SQLite: the meeting's index keys, made (or moved, should its start have changed) as needed. */
async function docOf(db: Db, meetingId: string, startedAt: string): Promise<{ row: number; doc: number }> {
  const base = Math.floor(Date.parse(startedAt) || 0) * 1024;
  const existing = await db.selectFrom('meeting_search_docs').select(['row', 'doc']).where('meeting_id', '=', meetingId).executeTakeFirst();
  if (existing && Math.floor(existing.doc / 1024) * 1024 === base) return existing;
  const last = await db
    .selectFrom('meeting_search_docs')
    .select((eb) => eb.fn.max('doc').as('doc'))
    .where('doc', '>=', base)
    .where('doc', '<', base + 1024)
    .executeTakeFirst();
  const doc = last?.doc === null || last?.doc === undefined ? base : Number(last.doc) + 1;
  if (existing) {
    await sql`delete from meeting_search where ${rowidBetween(existing.doc, existing.doc)}`.execute(db);
    await db.updateTable('meeting_search_docs').set({ doc }).where('meeting_id', '=', meetingId).execute();
    return { row: existing.row, doc };
  }
  const inserted = await db.insertInto('meeting_search_docs').values({ meeting_id: meetingId, doc }).returning('row').executeTakeFirstOrThrow();
  return { row: inserted.row, doc };
}

/** SQLite: the meeting's document again, from its row, participants, notes passages and transcript. */
async function writeDocument(db: Db, meetingId: string, keys: { row: number; doc: number }): Promise<void> {
  await sql`delete from meeting_search where ${rowidBetween(keys.doc, keys.doc)}`.execute(db);
  const notesFrom = keys.row * PER_MEETING + SUMMARY;
  await sql`insert into meeting_search (rowid, title, people, notes, transcript)
    select cast(${keys.doc} as integer), m.title,
      coalesce((select group_concat(name, ' ') from meeting_participants p where p.meeting_id = m.id), ''),
      coalesce((select group_concat(text, ' ') from passage_search where ${rowidBetween(notesFrom, keys.row * PER_MEETING + PER_MEETING - 1)}), ''),
      coalesce((select group_concat(text, ' ') from (select text from transcript_segments s where s.meeting_id = m.id order by s.start_ms, s.id)), '')
    from meetings m where m.id = ${meetingId}`.execute(db);
}

/** PostgreSQL: the meeting's weighted tsvector again (title, people and notes weigh more than the transcript). */
async function writeVector(db: Db, meetingId: string): Promise<void> {
  await sql`update meetings m set search_vector =
    setweight(to_tsvector('english', m.title), 'A') ||
    setweight(to_tsvector('english', coalesce((select string_agg(name, ' ') from meeting_participants p where p.meeting_id = m.id), '')), 'B') ||
    setweight(to_tsvector('english', coalesce((select string_agg(text, ' ' order by position) from meeting_search_passages n where n.meeting_id = m.id and n.position >= ${SUMMARY}), '')), 'B') ||
    to_tsvector('english', coalesce((select string_agg(text, ' ' order by start_ms, id) from transcript_segments s where s.meeting_id = m.id), ''))
    where m.id = ${meetingId}`.execute(db);
}

/** Rebuilds a meeting's index after its title, summary, participants, speakers or transcript changed (its notes passages stay). */
export async function reindexMeeting(db: Db, meetingId: string): Promise<void> {
  const meeting = await db.selectFrom('meetings').select(['started_at', 'summary']).where('id', '=', meetingId).executeTakeFirst();
  if (!meeting) return removeFromIndex(db, [meetingId]);
  const summary = meeting.summary?.trim() ? meeting.summary : null;
  if (isPostgres(db)) {
    await db.deleteFrom('meeting_search_passages').where('meeting_id', '=', meetingId).where('position', '<=', SUMMARY).execute();
    await sql`insert into meeting_search_passages (meeting_id, position, kind, ref, start_ms, speaker, text, vector)
      select meeting_id, n, 'transcript', id, start_ms, speaker, text, setweight(to_tsvector('english', speaker), 'B') || to_tsvector('english', text)
      from (
        select s.meeting_id, s.id, s.text, s.start_ms, coalesce(sp.display_name, sp.label, '') as speaker,
          (row_number() over (order by s.start_ms, s.id) - 1)::integer as n
        from transcript_segments s left join meeting_speakers sp on sp.id = s.speaker_id
        where s.meeting_id = ${meetingId}
      ) t where n < ${SUMMARY}`.execute(db);
    if (summary !== null) {
      await sql`insert into meeting_search_passages (meeting_id, position, kind, ref, start_ms, speaker, text, vector)
        values (${meetingId}, ${SUMMARY}, 'summary', null, null, '', ${summary}, to_tsvector('english', ${summary}))`.execute(db);
    }
    return writeVector(db, meetingId);
  }
  const keys = await docOf(db, meetingId, meeting.started_at);
  const first = keys.row * PER_MEETING;
  await sql`delete from passage_search where ${rowidBetween(first, first + SUMMARY)}`.execute(db);
  // SQLite runs on the server's thread: the passages go in slices with a turn of the event loop
  // between them, so a long transcript never holds every other request for the whole of it.
  const segments = await db
    .selectFrom('transcript_segments')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('meeting_id', '=', meetingId)
    .executeTakeFirstOrThrow();
  for (let from = 0; from < Math.min(Number(segments.n), SUMMARY); from += PASSAGE_SLICE) {
    if (from > 0) await yieldToEventLoop();
    await sql`insert into passage_search (rowid, speaker, text, kind, ref, start_ms)
      select cast(${first} as integer) + n, speaker, text, 'transcript', id, start_ms from (
        select s.id, s.text, s.start_ms, coalesce(sp.display_name, sp.label, '') as speaker,
          row_number() over (order by s.start_ms, s.id) - 1 as n
        from transcript_segments s left join meeting_speakers sp on sp.id = s.speaker_id
        where s.meeting_id = ${meetingId}
      ) where n >= ${from} and n < ${Math.min(from + PASSAGE_SLICE, SUMMARY)}`.execute(db);
  }
  await yieldToEventLoop();
  if (summary !== null) {
    await db
      .insertInto('passage_search')
      .values({ rowid: first + SUMMARY, speaker: '', text: summary, kind: 'summary', ref: null, start_ms: null })
      .execute();
  }
  await writeDocument(db, meetingId, keys);
}

/** Replaces the notes items a meeting is found by (action items and decisions) and rebuilds its document. */
export async function indexNotes(db: Db, meetingId: string, notes: SearchableNote[]): Promise<void> {
  const meeting = await db.selectFrom('meetings').select('started_at').where('id', '=', meetingId).executeTakeFirst();
  if (!meeting) return;
  const items = notes.slice(0, PER_MEETING - SUMMARY - 1);
  if (isPostgres(db)) {
    await db.deleteFrom('meeting_search_passages').where('meeting_id', '=', meetingId).where('position', '>', SUMMARY).execute();
    // A hundred rows a statement: a round trip each was most of the cost of storing a meeting's notes.
    for (let start = 0; start < items.length; start += 100) {
      const rows = items.slice(start, start + 100).map((item, i) => {
        const assignee = item.assignee ?? '';
        return sql`(${meetingId}, ${SUMMARY + 1 + start + i}, ${item.kind}, ${item.id}, ${Math.max(0, Math.round(item.startMs))}, ${assignee}, ${item.text},
          setweight(to_tsvector('english', ${assignee}), 'B') || to_tsvector('english', ${item.text}))`;
      });
      await sql`insert into meeting_search_passages (meeting_id, position, kind, ref, start_ms, speaker, text, vector) values ${sql.join(rows)}`.execute(db);
    }
    return writeVector(db, meetingId);
  }
  const keys = await docOf(db, meetingId, meeting.started_at);
  const first = keys.row * PER_MEETING + SUMMARY + 1;
  await sql`delete from passage_search where ${rowidBetween(first, keys.row * PER_MEETING + PER_MEETING - 1)}`.execute(db);
  for (let start = 0; start < items.length; start += 100) {
    const chunk = items.slice(start, start + 100);
    await db
      .insertInto('passage_search')
      .values(
        chunk.map((item, i) => ({
          rowid: first + start + i,
          speaker: item.assignee ?? '',
          text: item.text,
          kind: item.kind,
          ref: item.id,
          start_ms: Math.max(0, Math.round(item.startMs)),
        })),
      )
      .execute();
  }
  await writeDocument(db, meetingId, keys);
}

export async function removeFromIndex(db: Db, meetingIds: string[]): Promise<void> {
  if (isPostgres(db) || meetingIds.length === 0) return; // the passages and the tsvector go with the meeting's row
  const docs = await db.selectFrom('meeting_search_docs').select(['row', 'doc']).where('meeting_id', 'in', meetingIds).execute();
  for (const { row, doc } of docs) {
    await sql`delete from meeting_search where ${rowidBetween(doc, doc)}`.execute(db);
    await sql`delete from passage_search where ${rowidBetween(row * PER_MEETING, row * PER_MEETING + PER_MEETING - 1)}`.execute(db);
  }
  await db.deleteFrom('meeting_search_docs').where('meeting_id', 'in', meetingIds).execute();
}

/** A word of a question as an index query term: letters and digits only (never query syntax). */
const safe = (words: string[]) => words.filter((w) => /^[\p{L}\p{N}]+$/u.test(w));

/** A transcript segment the search index ranked. */
export type RankedSegment = { meetingId: string; segmentId: string };

/**
 * The transcript segments that best match any of `words`, best first, among the reader's meetings
 * (or one of them): what a search across a person's whole archive narrows to first. Ranked by the engines' relevance: bm25 over speaker and text on SQLite (the
 * speaker weighs less: a question names roles less often than it names subjects); on PostgreSQL
 * ts_rank with length normalisation, each word weighted by its idf among the passages in scope.
 */
export async function rankSegments(
  db: Db,
  reader: MeetingReader,
  words: string[],
  options: { meetingId?: string | undefined; limit: number },
): Promise<RankedSegment[]> {
  const terms = safe(words);
  if (terms.length === 0) return [];
  const oneMeeting = options.meetingId === undefined ? sql<SqlBool>`1 = 1` : sql<SqlBool>`meetings.id = ${options.meetingId}`;
  if (isPostgres(db)) {
    // ts_rank knows no inverse document frequency: a word every passage holds ("remote control" in
    // meetings about one) would outweigh the rare one the question is about. One scan counts each
    // word's passages in scope; each word's rank is weighted by its BM25 idf.
    const scope = sql`from meeting_search_passages p join meetings on meetings.id = p.meeting_id
      where ${readableBy(reader)} and ${oneMeeting} and p.kind = 'transcript' and p.ref is not null`;
    const counted = await sql<Record<string, number | string>>`select count(*) as total,
      ${sql.join(terms.map((t, i) => sql`count(*) filter (where p.vector @@ to_tsquery('english', ${t})) as ${sql.ref(`d${i}`)}`))} ${scope}`.execute(db);
    const counts = counted.rows[0] ?? {};
    const total = Number(counts.total ?? 0);
    const weighted = terms.flatMap((t, i) => {
      const df = Number(counts[`d${i}`] ?? 0);
      return df === 0 ? [] : [{ t, idf: Math.log(1 + (total - df + 0.5) / (df + 0.5)) }];
    });
    if (weighted.length === 0) return [];
    const any = weighted.map((w) => w.t).join(' | ');
    const score = sql.join(
      weighted.map((w) => sql`${w.idf}::float8 * ts_rank(p.vector, to_tsquery('english', ${w.t}), 1)`),
      sql` + `,
    );
    const rows = await sql<{ meeting_id: string; ref: string }>`
      select p.meeting_id, p.ref ${scope} and p.vector @@ to_tsquery('english', ${any})
      order by ${score} desc, p.meeting_id, p.position
      limit ${options.limit}`.execute(db);
    return rows.rows.map((r) => ({ meetingId: r.meeting_id, segmentId: r.ref }));
  }
  const match = terms.map((t) => `"${t}"`).join(' OR ');
  const rows = await sql<{ meeting_id: string; ref: string }>`
    select d.meeting_id, p.ref from passage_search p
    join meeting_search_docs d on d.row = p.rowid / cast(${PER_MEETING} as integer)
    join meetings on meetings.id = d.meeting_id
    where passage_search match ${match} and p.kind = 'transcript' and p.ref is not null
      and ${readableBy(reader)} and ${oneMeeting}
    order by bm25(passage_search, 0.3, 1.0), p.rowid
    limit ${options.limit}`.execute(db);
  return rows.rows.map((r) => ({ meetingId: r.meeting_id, segmentId: r.ref }));
}
