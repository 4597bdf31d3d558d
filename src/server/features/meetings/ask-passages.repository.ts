import { sql, type SqlBool } from 'kysely';
import type { Db } from '#server/db/create-db.ts';
import { isPostgres } from '#server/db/dialect.ts';
import { readableBy, type MeetingReader } from './meeting-access.ts';
import { PASSAGES_PER_MEETING } from './meeting-search.repository.ts';

/**
 * What Ask (features/ask) reads of the meetings: transcript passages ranked by the search index's own
 * relevance (FTS5's bm25 on SQLite, ts_rank on PostgreSQL) among the meetings a reader may read, and
 * the segments around a passage. Read-only; the index is written by meeting-search.repository.ts.
 */
export type RankedSegment = { meetingId: string; segmentId: string };

export type Neighbour = { segmentId: string; startMs: number; speaker: string | null; text: string };

/** One segment with what a citation shows: its meeting's title, who spoke, when, and its neighbours. */
export type SegmentInContext = {
  meetingId: string;
  meetingTitle: string;
  meetingStartedAt: string;
  segmentId: string;
  startMs: number;
  endMs: number;
  speaker: string | null;
  text: string;
  /** The segments just before and after (same meeting, transcript order). */
  before: Neighbour[];
  after: Neighbour[];
};

const neighbour = (s: { id: string; text: string; start_ms: number | string; speaker: string | null }): Neighbour => ({
  segmentId: s.id,
  startMs: Number(s.start_ms),
  speaker: s.speaker,
  text: s.text,
});

/** A word of a question as an index query term: letters and digits only (never query syntax). */
const safe = (words: string[]) => words.filter((w) => /^[\p{L}\p{N}]+$/u.test(w));

/**
 * The transcript segments that best match any of `words`, best first, among the reader's meetings
 * (or one of them). Ranked by the engines' relevance: bm25 over speaker and text on SQLite (the
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
    join meeting_search_docs d on d.row = p.rowid / cast(${PASSAGES_PER_MEETING} as integer)
    join meetings on meetings.id = d.meeting_id
    where passage_search match ${match} and p.kind = 'transcript' and p.ref is not null
      and ${readableBy(reader)} and ${oneMeeting}
    order by bm25(passage_search, 0.3, 1.0), p.rowid
    limit ${options.limit}`.execute(db);
  return rows.rows.map((r) => ({ meetingId: r.meeting_id, segmentId: r.ref }));
}

/** A ready meeting the reader may read, as Ask's own index keys it (rebuilt when any of these change). */
export type ReadableMeeting = { id: string; title: string; startedAt: string; updatedAt: string; transcriptRevision: number };

/** The reader's meetings (or the one asked about, when readable), with the revision of each transcript. */
export async function readableMeetings(db: Db, reader: MeetingReader, meetingId?: string): Promise<ReadableMeeting[]> {
  let query = db
    .selectFrom('meetings')
    .select(['id', 'title', 'started_at', 'updated_at', 'transcript_revision'])
    .where(readableBy(reader))
    .where('status', '=', 'ready');
  if (meetingId !== undefined) query = query.where('id', '=', meetingId);
  const rows = await query.execute();
  return rows.map((r) => ({ id: r.id, title: r.title, startedAt: r.started_at, updatedAt: r.updated_at, transcriptRevision: r.transcript_revision }));
}

/** A meeting's transcript as Ask indexes it: its summary, its speakers by name and its segments in order. */
export type TranscriptForAsk = ReadableMeeting & {
  summary: string | null;
  speakers: { id: string; name: string }[];
  segments: { id: string; speakerId: string | null; startMs: number; text: string }[];
};

/** The transcripts of these meetings that the reader may read (any other id is left out), in three queries. */
export async function transcriptsForAsk(db: Db, reader: MeetingReader, meetingIds: string[]): Promise<TranscriptForAsk[]> {
  if (meetingIds.length === 0) return [];
  const meetings = await db
    .selectFrom('meetings')
    .select(['id', 'title', 'started_at', 'updated_at', 'summary', 'transcript_revision'])
    .where('id', 'in', [...new Set(meetingIds)])
    .where(readableBy(reader))
    .where('status', '=', 'ready')
    .execute();
  if (meetings.length === 0) return [];
  const ids = meetings.map((m) => m.id);
  const [speakers, segments] = await Promise.all([
    db.selectFrom('meeting_speakers').select(['id', 'meeting_id', 'label', 'display_name']).where('meeting_id', 'in', ids).orderBy('position').execute(),
    db
      .selectFrom('transcript_segments')
      .select(['id', 'meeting_id', 'speaker_id', 'start_ms', 'text'])
      .where('meeting_id', 'in', ids)
      .orderBy('meeting_id')
      .orderBy('start_ms')
      .orderBy('id')
      .execute(),
  ]);
  const group = <T extends { meeting_id: string }>(rows: T[]) => {
    const by = new Map<string, T[]>();
    for (const row of rows) {
      const list = by.get(row.meeting_id);
      if (list) list.push(row);
      else by.set(row.meeting_id, [row]);
    }
    return by;
  };
  const speakersOf = group(speakers);
  const segmentsOf = group(segments);
  return meetings.map((m) => ({
    id: m.id,
    title: m.title,
    startedAt: m.started_at,
    updatedAt: m.updated_at,
    summary: m.summary,
    transcriptRevision: m.transcript_revision,
    speakers: (speakersOf.get(m.id) ?? []).map((s) => ({ id: s.id, name: s.display_name ?? s.label })),
    segments: (segmentsOf.get(m.id) ?? []).map((s) => ({ id: s.id, speakerId: s.speaker_id, startMs: Number(s.start_ms), text: s.text })),
  }));
}

/**
 * These segments (of the reader's meetings only: any other id is left out) with their meeting, speaker
 * and `around` segments either side, in the order asked.
 */
export async function segmentsInContext(db: Db, reader: MeetingReader, segmentIds: string[], around: number): Promise<SegmentInContext[]> {
  if (segmentIds.length === 0) return [];
  const speakerName = sql<string | null>`coalesce(sp.display_name, sp.label)`;
  const rows = await db
    .selectFrom('transcript_segments as s')
    .innerJoin('meetings', 'meetings.id', 's.meeting_id')
    .leftJoin('meeting_speakers as sp', 'sp.id', 's.speaker_id')
    .select(['s.id', 's.meeting_id', 's.start_ms', 's.end_ms', 's.text', 'meetings.title', 'meetings.started_at', speakerName.as('speaker')])
    .where('s.id', 'in', [...new Set(segmentIds)])
    .where(readableBy(reader))
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const result: SegmentInContext[] = [];
  for (const id of segmentIds) {
    const row = byId.get(id);
    if (!row) continue;
    const side = (direction: 'before' | 'after') =>
      db
        .selectFrom('transcript_segments as s')
        .leftJoin('meeting_speakers as sp', 'sp.id', 's.speaker_id')
        .select(['s.id', 's.text', 's.start_ms', speakerName.as('speaker')])
        .where('s.meeting_id', '=', row.meeting_id)
        .where((eb) =>
          direction === 'before'
            ? eb.or([eb('s.start_ms', '<', row.start_ms), eb.and([eb('s.start_ms', '=', row.start_ms), eb('s.id', '<', row.id)])])
            : eb.or([eb('s.start_ms', '>', row.start_ms), eb.and([eb('s.start_ms', '=', row.start_ms), eb('s.id', '>', row.id)])]),
        )
        .orderBy('s.start_ms', direction === 'before' ? 'desc' : 'asc')
        .orderBy('s.id', direction === 'before' ? 'desc' : 'asc')
        .limit(around)
        .execute();
    const [before, after] = around > 0 ? await Promise.all([side('before'), side('after')]) : [[], []];
    result.push({
      meetingId: row.meeting_id,
      meetingTitle: row.title,
      meetingStartedAt: row.started_at,
      segmentId: row.id,
      startMs: Number(row.start_ms),
      endMs: Number(row.end_ms),
      speaker: row.speaker,
      text: row.text,
      before: before.reverse().map(neighbour),
      after: after.map(neighbour),
    });
  }
  return result;
}
