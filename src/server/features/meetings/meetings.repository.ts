import { inTransaction } from '#server/db/transaction.ts';
import crypto from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { expressionBuilder, type Expression, type Selectable, type SqlBool } from 'kysely';
import {
  DEFAULT_RECORDING_OPTIONS,
  RecordingOptionsSchema,
  UNTITLED_MEETING,
  type MeetingDetail,
  type MeetingListQuery,
  type MeetingListResponse,
  type MeetingStats,
  type MeetingSummary,
  type RecordingOptions,
  type SearchMatch,
  MEETING_SEARCH_LIMIT,
} from '#shared/contracts/meetings.ts';
import type { Database } from '#server/db/database.ts';
import type { Db } from '#server/db/create-db.ts';
import { isPostgres } from '#server/db/dialect.ts';
import { MEETING_COLUMNS, type MeetingsTable } from './meetings.table.ts';
import { scoreSentiment } from './sentiment.ts';
import {
  indexNotes,
  passagesMatching,
  reindexMeeting,
  removeFromIndex,
  searchMeetings,
  searchTokens,
  type SearchableNote,
} from './meeting-search.repository.ts';
import { accessOf, ownerOnly, readableBy, type MeetingReader } from './meeting-access.ts';

/**
 * Every query here is scoped by reader (meeting-access.ts) or by owner for changes: a meeting the
 * caller may not read is indistinguishable from one that does not exist.
 */
type MeetingRow = Selectable<MeetingsTable>;

const nowIso = () => new Date().toISOString();

function parseOptions(text: string): RecordingOptions {
  const parsed = RecordingOptionsSchema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : DEFAULT_RECORDING_OPTIONS;
}

async function participantsOf(db: Db, meetingIds: string[]): Promise<Map<string, string[]>> {
  const byMeeting = new Map<string, string[]>(meetingIds.map((id) => [id, []]));
  if (meetingIds.length === 0) return byMeeting;
  const rows = await db
    .selectFrom('meeting_participants')
    .select(['meeting_id', 'name'])
    .where('meeting_id', 'in', meetingIds)
    .orderBy('meeting_id')
    .orderBy('position')
    .execute();
  for (const row of rows) byMeeting.get(row.meeting_id)?.push(row.name);
  return byMeeting;
}

/** The meeting as its reader sees it; the owner's name is the service's to add (auth knows names). */
function presentSummary(row: MeetingRow, participants: string[], reader: MeetingReader): MeetingSummary {
  return {
    id: row.id,
    title: row.title,
    startedAt: row.started_at,
    durationSeconds: row.duration_seconds,
    status: row.status,
    source: row.source,
    participants,
    summary: row.summary,
    isSample: row.is_sample === 1,
    hasAudio: row.audio_key !== null,
    createdAt: row.created_at,
    processing: null,
    failureReason: row.failure_reason,
    teamId: row.team_id,
    owner: { id: row.owner_id, name: '' },
    access: accessOf(row, reader) ?? 'owner',
  };
}

/** `reads`: where the search's own queries run (create-db.ts: off the server's thread on SQLite), built here as any other. */
export async function listMeetings(db: Db, reader: MeetingReader, query: MeetingListQuery, reads: Db = db): Promise<MeetingListResponse> {
  const eb = expressionBuilder<Database, 'meetings'>();
  const filters: Expression<SqlBool>[] = [readableBy(reader)];
  if (query.status) filters.push(eb('meetings.status', '=', query.status));
  if (query.from) filters.push(eb('meetings.started_at', '>=', `${query.from}T00:00:00.000Z`));
  if (query.to) filters.push(eb('meetings.started_at', '<=', `${query.to}T23:59:59.999Z`));
  const participant = query.participant?.toLowerCase();
  const listed = participant ? [...filters, listsParticipant(participant)] : filters;
  const tokens = query.q ? searchTokens(query.q) : [];
  let page: { rows: MeetingRow[]; total: number; totalIsAtLeast: boolean };
  if (tokens.length > 0) {
    page = await searchMeetings(reads, listed, tokens, {
      sort: query.sort ?? 'newest',
      from: query.from,
      to: query.to,
      page: query.page,
      pageSize: query.pageSize,
    });
  } else {
    // On the server's thread, a participant's list too: its statements take a millisecond or two, about
    // what a hand-off to a read thread (db/sqlite-read-pool.ts) would add in CPU.
    const base = db.selectFrom('meetings').where(eb.and(listed));
    // The page's ids first, from the (owner, started_at, id) index alone, then only those rows: a deep
    // page (page 500 of 10,000 meetings) reads no rows before it (PostgreSQL would sort the whole table).
    const pageIds = base
      .select('meetings.id')
      .orderBy('meetings.started_at', 'desc')
      .orderBy('meetings.id', 'desc')
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize);
    const [total, rows] = await Promise.all([
      participant && !isPostgres(db)
        ? countWithParticipant(db, reader, filters, participant)
        : base
            .select((b) => b.fn.countAll<number | string>().as('total'))
            .executeTakeFirst()
            .then((row) => Number(row?.total ?? 0)),
      db
        .selectFrom('meetings')
        .select(MEETING_COLUMNS)
        .where('meetings.id', 'in', pageIds)
        .orderBy('meetings.started_at', 'desc')
        .orderBy('meetings.id', 'desc')
        .execute(),
    ]);
    page = { rows, total, totalIsAtLeast: false };
  }
  const ids = page.rows.map((r) => r.id);
  const [participants, matches] = await Promise.all([
    participantsOf(db, ids),
    passagesMatching(reads, ids, tokens, { perMeeting: MATCHES_PER_MEETING, order: 'rank' }),
  ]);
  return {
    items: page.rows.map((r) => ({
      ...presentSummary(r, participants.get(r.id) ?? [], reader),
      ...(tokens.length > 0 ? { matches: matches.get(r.id) ?? [] } : {}),
    })),
    total: page.total,
    ...(page.totalIsAtLeast ? { totalIsAtLeast: true } : {}),
    page: query.page,
    pageSize: query.pageSize,
  };
}

/**
 * The meeting lists the participant (a lower-cased name), as a correlated EXISTS: one lookup in the
 * (name, meeting) index per meeting tried, so the newest page stops at its last match, where
 * `id in (…)` first built the set of every meeting the name is in.
 */
function listsParticipant(participant: string): Expression<SqlBool> {
  const eb = expressionBuilder<Database, 'meetings'>();
  return eb.exists(
    eb
      .selectFrom('meeting_participants')
      .select('meeting_participants.meeting_id')
      .whereRef('meeting_participants.meeting_id', '=', 'meetings.id')
      .where('meeting_participants.name_lower', '=', participant),
  );
}

/**
 * SQLite: how many meetings pass `filters` and list the participant. It can count them two ways:
 * try each meeting the reader may read in the (name, meeting) index, or check each meeting the name
 * is in (anyone's) against `filters`. Which is cheaper depends on the data (a name may be in a few
 * of this reader's meetings and thousands of other people's, or in a quarter of a long history), and
 * SQLite's planner cannot tell; so the statement first counts both sides from their indexes alone (a
 * small part of either answer's cost) and the smaller one drives. CASE runs only the branch taken.
 * PostgreSQL's planner weighs this itself.
 */
async function countWithParticipant(db: Db, reader: MeetingReader, filters: Expression<SqlBool>[], participant: string): Promise<number> {
  const row = await db
    .selectNoFrom((eb) => {
      const named = eb.selectFrom('meeting_participants').select(eb.fn.countAll().as('n')).where('name_lower', '=', participant);
      // The reader's meetings however old: the plan's history limit would read every row, and a size needs no precision.
      const readable = eb
        .selectFrom('meetings')
        .select(eb.fn.countAll().as('n'))
        .where(readableBy({ ...reader, since: undefined }));
      // CROSS JOIN keeps the name's index entries as the outer loop.
      const byName = eb
        .selectFrom('meeting_participants as p')
        .crossJoin('meetings')
        .whereRef('meetings.id', '=', 'p.meeting_id')
        .where('p.name_lower', '=', participant)
        .where(eb.and(filters))
        .select((qb) => qb.fn.count('p.meeting_id').distinct().as('n'));
      const byReader = eb
        .selectFrom('meetings')
        .where(eb.and([...filters, listsParticipant(participant)]))
        .select(eb.fn.countAll().as('n'));
      return eb.case().when(named, '<', readable).then(byName).else(byReader).end().as('n');
    })
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The passages of one meeting the reader may read that match a search, in transcript order; undefined when it is not theirs to read. */
export async function searchInMeeting(db: Db, reader: MeetingReader, meetingId: string, q: string, reads: Db = db): Promise<SearchMatch[] | undefined> {
  const visible = await db.selectFrom('meetings').select('id').where('id', '=', meetingId).where(readableBy(reader)).executeTakeFirst();
  if (!visible) return undefined;
  const matches = await passagesMatching(reads, [meetingId], searchTokens(q), { perMeeting: MEETING_SEARCH_LIMIT, order: 'time' });
  return matches.get(meetingId) ?? [];
}

/** How many passages a meeting in a search result shows. */
const MATCHES_PER_MEETING = 3;

/** The caller's own meeting, for a change (only the owner edits). */
async function findOwned(db: Db, ownerId: string, id: string): Promise<MeetingRow | undefined> {
  return db
    .selectFrom('meetings')
    .select(MEETING_COLUMNS)
    .where('id', '=', id)
    .where(readableBy(ownerOnly(ownerId)))
    .executeTakeFirst();
}

/** A meeting as this feature stores it: the API's MeetingDetail without what other features add (notes, processing). */
export type MeetingRecord = Omit<MeetingDetail, 'insights' | 'notes'> & { transcriptRevision: number };

export async function getMeeting(db: Db, reader: MeetingReader, id: string): Promise<MeetingRecord | undefined> {
  const row = await db.selectFrom('meetings').select(MEETING_COLUMNS).where('id', '=', id).where(readableBy(reader)).executeTakeFirst();
  if (!row) return undefined;
  const [participants, speakers, segments, corrections] = await Promise.all([
    participantsOf(db, [id]),
    db.selectFrom('meeting_speakers').selectAll().where('meeting_id', '=', id).orderBy('position').execute(),
    db.selectFrom('transcript_segments').selectAll().where('meeting_id', '=', id).orderBy('start_ms').orderBy('id').execute(),
    db.selectFrom('transcript_corrections').selectAll().where('meeting_id', '=', id).orderBy('position').execute(),
  ]);
  const correctionsOf = new Map<string, typeof corrections>();
  for (const c of corrections) correctionsOf.set(c.segment_id, [...(correctionsOf.get(c.segment_id) ?? []), c]);
  return {
    ...presentSummary(row, participants.get(id) ?? [], reader),
    options: parseOptions(row.options),
    audioSources: row.audio_sources ? (JSON.parse(row.audio_sources) as string[]) : null,
    failureReason: row.failure_reason,
    speakers: speakers.map((s) => ({ id: s.id, label: s.label, displayName: s.display_name })),
    segments: segments.map((s) => {
      const segment = { id: s.id, speakerId: s.speaker_id, startMs: s.start_ms, endMs: s.end_ms, text: s.text, confidence: s.confidence };
      const current = (correctionsOf.get(s.id) ?? []).flatMap((c) => {
        const position = correctionAt(s.text, c);
        return position === undefined ? [] : [{ id: c.id, position, original: c.original, corrected: c.corrected }];
      });
      return current.length > 0 ? { ...segment, corrections: current } : segment;
    }),
    transcriptRevision: row.transcript_revision,
  };
}

/**
 * Where a correction's term is in the line now: where it was put, or (the line edited since) its one
 * occurrence; undefined when the person's edits took it out or made it ambiguous (nothing left to undo).
 */
function correctionAt(text: string, correction: { position: number; corrected: string }): number | undefined {
  if (text.startsWith(correction.corrected, correction.position)) return correction.position;
  const first = text.indexOf(correction.corrected);
  return first !== -1 && text.indexOf(correction.corrected, first + 1) === -1 ? first : undefined;
}

/**
 * Puts back what the engine heard in place of a vocabulary correction (the person's undo), in the
 * caller's transaction: the line's later corrections move with the text, the correction goes.
 * 'changed': the line no longer holds the term where it can be told apart.
 */
export async function undoCorrection(db: Db, ownerId: string, meetingId: string, correctionId: string): Promise<'done' | 'not-found' | 'changed'> {
  return inTransaction(db, async (trx) => {
    const meeting = await findOwned(trx, ownerId, meetingId);
    if (!meeting) return 'not-found';
    const correction = await trx
      .selectFrom('transcript_corrections')
      .selectAll()
      .where('id', '=', correctionId)
      .where('meeting_id', '=', meetingId)
      .executeTakeFirst();
    if (!correction) return 'not-found';
    const line = await trx.selectFrom('transcript_segments').select('text').where('id', '=', correction.segment_id).executeTakeFirst();
    const position = line ? correctionAt(line.text, correction) : undefined;
    if (!line || position === undefined) return 'changed';
    const text = line.text.slice(0, position) + correction.original + line.text.slice(position + correction.corrected.length);
    const shift = correction.original.length - correction.corrected.length;
    await trx.deleteFrom('transcript_corrections').where('id', '=', correction.id).execute();
    if (shift !== 0)
      await trx
        .updateTable('transcript_corrections')
        .set((eb) => ({ position: eb('position', '+', shift) }))
        .where('segment_id', '=', correction.segment_id)
        .where('position', '>', position)
        .execute();
    return (await updateSegmentText(trx, ownerId, meetingId, correction.segment_id, text)) ? 'done' : 'not-found';
  });
}

/** The participants a person typed; the named speakers follow them (syncSpeakerParticipants). */
async function replaceParticipants(db: Db, meetingId: string, names: string[]): Promise<void> {
  await db.deleteFrom('meeting_participants').where('meeting_id', '=', meetingId).execute();
  const seen = new Set<string>();
  const unique = names.filter((n) => !seen.has(n.toLowerCase()) && seen.add(n.toLowerCase()));
  if (unique.length > 0) {
    await db
      .insertInto('meeting_participants')
      .values(unique.map((name, position) => ({ meeting_id: meetingId, position, name, name_lower: name.toLowerCase(), source: 'manual' as const })))
      .execute();
  }
  await syncSpeakerParticipants(db, meetingId);
}

/**
 * Named speakers are participants too (cards, the participant filter, exports): after the typed
 * ones, each name once, renamed with its speaker.
 */
async function syncSpeakerParticipants(db: Db, meetingId: string): Promise<void> {
  await db.deleteFrom('meeting_participants').where('meeting_id', '=', meetingId).where('source', '=', 'speaker').execute();
  const [typed, speakers] = await Promise.all([
    db.selectFrom('meeting_participants').select(['name_lower', 'position']).where('meeting_id', '=', meetingId).execute(),
    db
      .selectFrom('meeting_speakers')
      .select('display_name')
      .where('meeting_id', '=', meetingId)
      .where('display_name', 'is not', null)
      .orderBy('position')
      .execute(),
  ]);
  const seen = new Set(typed.map((p) => p.name_lower));
  const names = speakers.flatMap((s) =>
    s.display_name && !seen.has(s.display_name.toLowerCase()) && seen.add(s.display_name.toLowerCase()) ? [s.display_name] : [],
  );
  if (names.length === 0) return;
  const first = typed.reduce((max, p) => Math.max(max, p.position + 1), 0);
  await db
    .insertInto('meeting_participants')
    .values(names.map((name, i) => ({ meeting_id: meetingId, position: first + i, name, name_lower: name.toLowerCase(), source: 'speaker' as const })))
    .execute();
}

export type NewMeeting = {
  /** A chosen id (a sample meeting's, the same when its setting up runs again); a new one otherwise. */
  id?: string;
  ownerId: string;
  title: string;
  source: MeetingsTable['source'];
  status: MeetingsTable['status'];
  options: Partial<RecordingOptions>;
  participants: string[];
  startedAt?: string;
  durationSeconds?: number;
  summary?: string | null;
  isSample?: boolean;
  audioSources?: string[];
  /** Shared with this team of the owner's from the start (checked by the service). */
  teamId?: string | null;
  /** The imported transcript file's size (storage quota). */
  transcriptBytes?: number;
};

export async function createMeeting(db: Db, input: NewMeeting): Promise<string> {
  return inTransaction(db, (trx) => insertMeeting(trx, input));
}

/** createMeeting's work inside the caller's transaction (an import writes its transcript in the same one); answers the new id. */
export async function insertMeeting(trx: Db, input: NewMeeting): Promise<string> {
  const id = input.id ?? crypto.randomUUID();
  const now = nowIso();
  await trx
    .insertInto('meetings')
    .values({
      id,
      owner_id: input.ownerId,
      title: input.title.trim() || UNTITLED_MEETING,
      started_at: input.startedAt ? new Date(input.startedAt).toISOString() : now,
      duration_seconds: input.durationSeconds ?? 0,
      status: input.status,
      failure_reason: null,
      source: input.source,
      options: JSON.stringify({ ...DEFAULT_RECORDING_OPTIONS, ...input.options }),
      summary: input.summary ?? null,
      is_sample: input.isSample ? 1 : 0,
      audio_key: null,
      audio_mime: null,
      audio_bytes: null,
      upload_id: null,
      audio_sources: input.audioSources && input.audioSources.length > 1 ? JSON.stringify(input.audioSources) : null,
      created_at: now,
      updated_at: now,
      transcript_revision: 0,
      team_id: input.teamId ?? null,
      transcript_bytes: input.transcriptBytes ?? 0,
    })
    .execute();
  await replaceParticipants(trx, id, input.participants);
  await reindexMeeting(trx, id);
  return id;
}

export type TranscriptInput = {
  speakers: { label: string; displayName?: string | null }[];
  segments: {
    speaker: number | null;
    startMs: number;
    endMs: number;
    text: string;
    confidence?: number | null;
    /** Words transcription corrected to custom vocabulary terms, what was heard kept (for undo). */
    corrections?: readonly { position: number; original: string; corrected: string }[];
  }[];
};

/** Sentiment is computed only for meetings whose "Anonymous Emotional Analysis" option is on. */
async function analysesSentiment(db: Db, meetingId: string): Promise<boolean> {
  const row = await db.selectFrom('meetings').select('options').where('id', '=', meetingId).executeTakeFirst();
  return row ? parseOptions(row.options).emotionalAnalysis : false;
}

/**
 * Sentiment scores from the installation's emotion provider (features/emotion), stored over the
 * local ones while the meeting's "Anonymous Emotional Analysis" is on, for the lines whose text is
 * still the text that was scored (a line edited meanwhile keeps its own score). The ids stored.
 */
export async function storeProviderSentiment(db: Db, meetingId: string, scores: { segmentId: string; text: string; score: number }[]): Promise<string[]> {
  return inTransaction(db, async (trx) => {
    if (!(await analysesSentiment(trx, meetingId))) return [];
    const stored: string[] = [];
    for (const { segmentId, text, score } of scores) {
      const result = await trx
        .updateTable('transcript_segments')
        .set({ sentiment: Math.max(-1, Math.min(1, score)) })
        .where('id', '=', segmentId)
        .where('meeting_id', '=', meetingId)
        .where('text', '=', text)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) stored.push(segmentId);
    }
    return stored;
  });
}

/** Notes made before this change are out of date (they compare their source revision). */
async function bumpTranscriptRevision(db: Db, meetingId: string): Promise<void> {
  await db
    .updateTable('meetings')
    .set((eb) => ({ transcript_revision: eb('transcript_revision', '+', 1) }))
    .where('id', '=', meetingId)
    .execute();
}

/** Transcript lines inserted in one statement. */
const SEGMENT_CHUNK = 200;

/** Replaces a meeting's speakers and transcript (a finished transcription, an import, or sample data). */
export async function replaceTranscript(db: Db, meetingId: string, input: TranscriptInput): Promise<string[]> {
  return inTransaction(db, (trx) => writeTranscript(trx, meetingId, input));
}

/** replaceTranscript's work inside the caller's transaction (the lifecycle writes status in the same one); answers the new segments' ids in input order. */
export async function writeTranscript(trx: Db, meetingId: string, input: TranscriptInput): Promise<string[]> {
  {
    const analyse = await analysesSentiment(trx, meetingId);
    await trx.deleteFrom('transcript_segments').where('meeting_id', '=', meetingId).execute();
    await trx.deleteFrom('meeting_speakers').where('meeting_id', '=', meetingId).execute();
    const speakerIds = input.speakers.map(() => crypto.randomUUID());
    if (input.speakers.length > 0) {
      await trx
        .insertInto('meeting_speakers')
        .values(
          input.speakers.map((s, i) => ({
            id: speakerIds[i] as string,
            meeting_id: meetingId,
            label: s.label,
            display_name: s.displayName ?? null,
            position: i,
          })),
        )
        .execute();
    }
    const segmentIds = input.segments.map(() => crypto.randomUUID());
    // Chunked so a long transcript stays under SQLite's bound-parameter limit, with a turn of the
    // event loop between chunks: SQLite's statements run on the server's thread, and 20,000 lines
    // written at once held every request for seconds.
    for (let start = 0; start < input.segments.length; start += SEGMENT_CHUNK) {
      if (start > 0) await yieldToEventLoop();
      const chunk = input.segments.slice(start, start + SEGMENT_CHUNK);
      await trx
        .insertInto('transcript_segments')
        .values(
          chunk.map((s, i) => ({
            id: segmentIds[start + i] as string,
            meeting_id: meetingId,
            speaker_id: s.speaker === null ? null : (speakerIds[s.speaker] ?? null),
            start_ms: Math.max(0, Math.round(s.startMs)),
            end_ms: Math.max(0, Math.round(s.endMs)),
            text: s.text,
            confidence: s.confidence ?? null,
            sentiment: analyse ? scoreSentiment(s.text) : null,
          })),
        )
        .execute();
    }
    const corrections = input.segments.flatMap((s, i) =>
      (s.corrections ?? []).map((c) => ({
        id: crypto.randomUUID(),
        meeting_id: meetingId,
        segment_id: segmentIds[i]!,
        position: c.position,
        original: c.original,
        corrected: c.corrected,
      })),
    );
    for (let start = 0; start < corrections.length; start += SEGMENT_CHUNK)
      await trx
        .insertInto('transcript_corrections')
        .values(corrections.slice(start, start + SEGMENT_CHUNK))
        .execute();
    await yieldToEventLoop();
    await syncSpeakerParticipants(trx, meetingId);
    await bumpTranscriptRevision(trx, meetingId);
    await reindexMeeting(trx, meetingId);
    return segmentIds;
  }
}

export async function updateMeeting(
  db: Db,
  ownerId: string,
  id: string,
  changes: { title?: string; summary?: string | null; participants?: string[] },
): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const row = await findOwned(trx, ownerId, id);
    if (!row) return false;
    await trx
      .updateTable('meetings')
      .set({
        ...(changes.title !== undefined ? { title: changes.title.trim() || UNTITLED_MEETING } : {}),
        ...(changes.summary !== undefined ? { summary: changes.summary } : {}),
        updated_at: nowIso(),
      })
      .where('id', '=', id)
      .execute();
    if (changes.participants) await replaceParticipants(trx, id, changes.participants);
    await reindexMeeting(trx, id);
    return true;
  });
}

export async function updateSegmentText(db: Db, ownerId: string, meetingId: string, segmentId: string, text: string): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const meeting = await findOwned(trx, ownerId, meetingId);
    if (!meeting) return false;
    const result = await trx
      .updateTable('transcript_segments')
      .set({ text, sentiment: parseOptions(meeting.options).emotionalAnalysis ? scoreSentiment(text) : null })
      .where('id', '=', segmentId)
      .where('meeting_id', '=', meetingId)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    await trx.updateTable('meetings').set({ updated_at: nowIso() }).where('id', '=', meetingId).execute();
    await bumpTranscriptRevision(trx, meetingId);
    await reindexMeeting(trx, meetingId);
    return true;
  });
}

export async function renameSpeaker(db: Db, ownerId: string, meetingId: string, speakerId: string, displayName: string): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    if (!(await findOwned(trx, ownerId, meetingId))) return false;
    const result = await trx
      .updateTable('meeting_speakers')
      .set({ display_name: displayName })
      .where('id', '=', speakerId)
      .where('meeting_id', '=', meetingId)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    await syncSpeakerParticipants(trx, meetingId);
    await bumpTranscriptRevision(trx, meetingId);
    // A speaker's name is searchable (the people and each of their passages).
    await reindexMeeting(trx, meetingId);
    return true;
  });
}

/**
 * One speaker's lines given to another and the first speaker removed (diarization heard one voice as
 * two). False when the meeting is not the caller's or either speaker is not in it.
 */
export async function mergeSpeakers(db: Db, ownerId: string, meetingId: string, speakerId: string, intoSpeakerId: string): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    if (!(await findOwned(trx, ownerId, meetingId))) return false;
    const found = await trx
      .selectFrom('meeting_speakers')
      .select('id')
      .where('meeting_id', '=', meetingId)
      .where('id', 'in', [speakerId, intoSpeakerId])
      .execute();
    if (found.length !== 2) return false;
    await trx
      .updateTable('transcript_segments')
      .set({ speaker_id: intoSpeakerId })
      .where('meeting_id', '=', meetingId)
      .where('speaker_id', '=', speakerId)
      .execute();
    await trx.deleteFrom('meeting_speakers').where('id', '=', speakerId).where('meeting_id', '=', meetingId).execute();
    await syncSpeakerParticipants(trx, meetingId);
    await bumpTranscriptRevision(trx, meetingId);
    await trx.updateTable('meetings').set({ updated_at: nowIso() }).where('id', '=', meetingId).execute();
    return true;
  });
}

/** Lines given to another speaker of the same meeting. False when the meeting, the speaker or any of the lines is not there. */
export async function assignSegments(db: Db, ownerId: string, meetingId: string, segmentIds: readonly string[], speakerId: string): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    if (!(await findOwned(trx, ownerId, meetingId))) return false;
    const speaker = await trx.selectFrom('meeting_speakers').select('id').where('meeting_id', '=', meetingId).where('id', '=', speakerId).executeTakeFirst();
    if (!speaker) return false;
    const ids = [...new Set(segmentIds)];
    // All or nothing: a line of another meeting (or none at all) moves none, checked before anything
    // is written (so this joins a caller's transaction without undoing the caller's work).
    const found = await trx
      .selectFrom('transcript_segments')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('meeting_id', '=', meetingId)
      .where('id', 'in', ids)
      .executeTakeFirstOrThrow();
    if (ids.length === 0 || Number(found.n) !== ids.length) return false;
    await trx.updateTable('transcript_segments').set({ speaker_id: speakerId }).where('meeting_id', '=', meetingId).where('id', 'in', ids).execute();
    await bumpTranscriptRevision(trx, meetingId);
    await trx.updateTable('meetings').set({ updated_at: nowIso() }).where('id', '=', meetingId).execute();
    return true;
  });
}

/**
 * One line cut in two at a character of its text (between words): the second part is a new line of
 * the same speaker, the time shared in proportion to the characters. 'missing' when the meeting is
 * not the caller's or the line not in it; 'invalid' when either part would be empty.
 */
export async function splitSegment(db: Db, ownerId: string, meetingId: string, segmentId: string, at: number): Promise<'done' | 'missing' | 'invalid'> {
  return inTransaction(db, async (trx) => {
    const meeting = await findOwned(trx, ownerId, meetingId);
    if (!meeting) return 'missing';
    const line = await trx.selectFrom('transcript_segments').selectAll().where('id', '=', segmentId).where('meeting_id', '=', meetingId).executeTakeFirst();
    if (!line) return 'missing';
    const first = line.text.slice(0, at).trim();
    const second = line.text.slice(at).trim();
    if (first === '' || second === '') return 'invalid';
    const splitMs = line.start_ms + Math.round(((line.end_ms - line.start_ms) * at) / line.text.length);
    const analyse = parseOptions(meeting.options).emotionalAnalysis;
    await trx
      .updateTable('transcript_segments')
      .set({ text: first, end_ms: splitMs, sentiment: analyse ? scoreSentiment(first) : null })
      .where('id', '=', segmentId)
      .execute();
    await trx
      .insertInto('transcript_segments')
      .values({
        id: crypto.randomUUID(),
        meeting_id: meetingId,
        speaker_id: line.speaker_id,
        start_ms: splitMs,
        end_ms: line.end_ms,
        text: second,
        confidence: line.confidence,
        sentiment: analyse ? scoreSentiment(second) : null,
      })
      .execute();
    await trx.updateTable('meetings').set({ updated_at: nowIso() }).where('id', '=', meetingId).execute();
    await bumpTranscriptRevision(trx, meetingId);
    await reindexMeeting(trx, meetingId);
    return 'done';
  });
}

/**
 * A line and the one after it made one line again (a split undone): the first's speaker, both
 * texts, the two times. False when the meeting is not the caller's or either line is not in it.
 */
export async function joinSegments(db: Db, ownerId: string, meetingId: string, segmentId: string, nextSegmentId: string): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const meeting = await findOwned(trx, ownerId, meetingId);
    if (!meeting || segmentId === nextSegmentId) return false;
    const lines = await trx
      .selectFrom('transcript_segments')
      .selectAll()
      .where('meeting_id', '=', meetingId)
      .where('id', 'in', [segmentId, nextSegmentId])
      .execute();
    const first = lines.find((l) => l.id === segmentId);
    const next = lines.find((l) => l.id === nextSegmentId);
    if (!first || !next) return false;
    const text = `${first.text} ${next.text}`;
    await trx
      .updateTable('transcript_segments')
      .set({
        text,
        start_ms: Math.min(first.start_ms, next.start_ms),
        end_ms: Math.max(first.end_ms, next.end_ms),
        sentiment: parseOptions(meeting.options).emotionalAnalysis ? scoreSentiment(text) : null,
      })
      .where('id', '=', segmentId)
      .execute();
    await trx.deleteFrom('transcript_segments').where('id', '=', nextSegmentId).execute();
    await trx.updateTable('meetings').set({ updated_at: nowIso() }).where('id', '=', meetingId).execute();
    await bumpTranscriptRevision(trx, meetingId);
    await reindexMeeting(trx, meetingId);
    return true;
  });
}

/** A new speaker of the meeting, labelled after the last ("Speaker 4"); its id. Undefined when the meeting is not the caller's. */
export async function addSpeaker(db: Db, ownerId: string, meetingId: string): Promise<string | undefined> {
  if (!(await findOwned(db, ownerId, meetingId))) return undefined;
  const speakers = await db.selectFrom('meeting_speakers').select(['label', 'position']).where('meeting_id', '=', meetingId).execute();
  const number = Math.max(speakers.length, ...speakers.map((s) => Number(/^Speaker (\d+)$/.exec(s.label)?.[1] ?? 0))) + 1;
  const position = Math.max(-1, ...speakers.map((s) => s.position)) + 1;
  const id = crypto.randomUUID();
  await db
    .insertInto('meeting_speakers')
    .values({ id, meeting_id: meetingId, label: `Speaker ${number}`, display_name: null, position })
    .execute();
  return id;
}

/** Removes a speaker of the meeting that no line is left to (a move to a new speaker undone); false when it has lines or is not there. */
export async function removeSpeakerWithoutLines(db: Db, ownerId: string, meetingId: string, speakerId: string): Promise<boolean> {
  if (!(await findOwned(db, ownerId, meetingId))) return false;
  const lines = await db
    .selectFrom('transcript_segments')
    .select('id')
    .where('meeting_id', '=', meetingId)
    .where('speaker_id', '=', speakerId)
    .limit(1)
    .executeTakeFirst();
  if (lines) return false;
  const removed = await db.deleteFrom('meeting_speakers').where('id', '=', speakerId).where('meeting_id', '=', meetingId).executeTakeFirst();
  if (Number(removed.numDeletedRows) === 0) return false;
  await syncSpeakerParticipants(db, meetingId);
  return true;
}

/** A meeting's speakers' ids in their order (as the transcript that stored them listed them). */
export async function speakerIdsOf(db: Db, meetingId: string): Promise<string[]> {
  const rows = await db.selectFrom('meeting_speakers').select('id').where('meeting_id', '=', meetingId).orderBy('position').execute();
  return rows.map((row) => row.id);
}

/** The names a person has given speakers across their meetings, most used first (the rename box offers them). */
export async function speakerNamesOf(db: Db, ownerId: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('meeting_speakers as sp')
    .innerJoin('meetings as m', 'm.id', 'sp.meeting_id')
    .select(['sp.display_name as name', (eb) => eb.fn.countAll<number | string>().as('uses')])
    .where('m.owner_id', '=', ownerId)
    .where('sp.display_name', 'is not', null)
    .groupBy('sp.display_name')
    .orderBy('uses', 'desc')
    .orderBy('sp.display_name')
    .limit(limit)
    .execute();
  return rows.flatMap((row) => (row.name ? [row.name] : []));
}

/** Deletes meetings and reports their audio keys so the caller removes the blobs too. */
export async function deleteMeetings(
  db: Db,
  ownerId: string,
  filter: { id: string } | { samples: true } | { all: true },
): Promise<{ ids: string[]; teams: (string | null)[]; audioKeys: string[]; uploadIds: string[] }> {
  return inTransaction(db, async (trx) => {
    let query = trx
      .selectFrom('meetings')
      .select(['id', 'team_id', 'audio_key', 'upload_id'])
      .where(readableBy(ownerOnly(ownerId)));
    if ('id' in filter) query = query.where('id', '=', filter.id);
    else if ('samples' in filter) query = query.where('is_sample', '=', 1);
    const rows = await query.execute();
    const ids = rows.map((r) => r.id);
    if (ids.length > 0) {
      await removeFromIndex(trx, ids);
      await trx.deleteFrom('meetings').where('id', 'in', ids).execute();
    }
    return {
      ids,
      teams: rows.map((r) => r.team_id),
      audioKeys: rows.flatMap((r) => (r.audio_key ? [r.audio_key] : [])),
      uploadIds: rows.flatMap((r) => (r.upload_id ? [r.upload_id] : [])),
    };
  });
}

/**
 * Usage for the dashboard (the notes feature adds its item counts). Meetings, transcriptions and
 * hours are the person's own: the sample meetings every account starts with would otherwise make
 * a new account's usage look like hours of work. `transcriptBytes` is the imported transcript files'
 * size, which the storage quota counts beside the blob store's figure; `sampleMeetings` says how
 * many samples are left.
 */
export async function meetingStats(
  db: Db,
  ownerId: string,
): Promise<Omit<MeetingStats, 'insights' | 'storageBytes' | 'storagePercent' | 'samplesSettingUp'> & { transcriptBytes: number }> {
  const totals = await db
    .selectFrom('meetings')
    .where('owner_id', '=', ownerId)
    .select((eb) => {
      const own = eb('is_sample', '=', 0);
      const count = (when: typeof own) => eb.fn.sum<number | string | null>(eb.case().when(when).then(1).else(0).end());
      return [
        count(own).as('meetings'),
        count(eb('is_sample', '=', 1)).as('samples'),
        count(eb.and([own, eb('status', '=', 'ready')])).as('ready'),
        eb.fn.sum<number | string | null>(eb.case().when(own).then(eb.ref('duration_seconds')).else(0).end()).as('seconds'),
        // Imported transcript files: counted in the storage quota beside the blob store's bytes.
        eb.fn.sum<number | string | null>(eb.ref('transcript_bytes')).as('transcriptBytes'),
      ];
    })
    .executeTakeFirst();
  return {
    meetings: Number(totals?.meetings ?? 0),
    sampleMeetings: Number(totals?.samples ?? 0),
    meetingsTranscribed: Number(totals?.ready ?? 0),
    hoursRecorded: Math.round((Number(totals?.seconds ?? 0) / 3600) * 10) / 10,
    transcriptBytes: Number(totals?.transcriptBytes ?? 0),
  };
}

/** How many of the owner's own meetings (samples aside) were added since `since`. */
export async function countAddedSince(db: Db, ownerId: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('meetings')
    .where('owner_id', '=', ownerId)
    .where('is_sample', '=', 0)
    .where('created_at', '>=', since.toISOString())
    .select((eb) => eb.fn.countAll<number | string>().as('meetings'))
    .executeTakeFirst();
  return Number(row?.meetings ?? 0);
}

/** How many of the owner's meetings were added before `before` (what a plan's history hides). */
export async function countAddedBefore(db: Db, ownerId: string, before: Date): Promise<number> {
  const row = await db
    .selectFrom('meetings')
    .where('owner_id', '=', ownerId)
    .where('created_at', '<', before.toISOString())
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** People with a meeting of their own (not a sample) that came into Parley before `before` (the auto-delete sweep). */
export async function ownersWithMeetingsBefore(db: Db, before: Date): Promise<string[]> {
  const rows = await db
    .selectFrom('meetings')
    .select('owner_id')
    .distinct()
    .where('is_sample', '=', 0)
    .where('created_at', '<', before.toISOString())
    .execute();
  return rows.map((r) => r.owner_id);
}

/** A person's meetings that came in before `before`: never samples, never one whose transcription runs. */
export async function expiredMeetingIds(db: Db, ownerId: string, before: Date): Promise<string[]> {
  const rows = await db
    .selectFrom('meetings')
    .select('id')
    .where('owner_id', '=', ownerId)
    .where('is_sample', '=', 0)
    .where('status', '!=', 'processing')
    .where('created_at', '<', before.toISOString())
    .execute();
  return rows.map((r) => r.id);
}

/** The recording of a meeting the reader may read, for downloads and the player. */
export async function audioOf(db: Db, reader: MeetingReader, id: string) {
  return db.selectFrom('meetings').select(['title', 'owner_id', 'audio_key', 'audio_mime']).where('id', '=', id).where(readableBy(reader)).executeTakeFirst();
}

/** Shares the owner's meeting with a team, or makes it private (null); answers the title, or undefined when it is not theirs. */
export async function setMeetingTeam(
  db: Db,
  ownerId: string,
  id: string,
  teamId: string | null,
): Promise<{ title: string; previousTeamId: string | null } | undefined> {
  return inTransaction(db, async (trx) => {
    const row = await findOwned(trx, ownerId, id);
    if (!row) return undefined;
    await trx.updateTable('meetings').set({ team_id: teamId, updated_at: nowIso() }).where('id', '=', id).execute();
    return { title: row.title, previousTeamId: row.team_id };
  });
}

/** Makes private again every meeting of the owner shared with the team (they left it); answers those it changed. */
export async function unshareOwnersMeetings(db: Db, ownerId: string, teamId: string): Promise<{ id: string; title: string }[]> {
  const rows = await db.selectFrom('meetings').select(['id', 'title']).where('owner_id', '=', ownerId).where('team_id', '=', teamId).execute();
  if (rows.length === 0) return [];
  await db.updateTable('meetings').set({ team_id: null, updated_at: nowIso() }).where('owner_id', '=', ownerId).where('team_id', '=', teamId).execute();
  return rows;
}

/** Who owns a meeting and which team it is shared with (realtime events go to its readers). */
export async function ownershipOf(db: Db, id: string) {
  return db.selectFrom('meetings').select(['owner_id', 'team_id', 'title', 'source']).where('id', '=', id).executeTakeFirst();
}

/**
 * For /team's cards: per member, meetings of theirs shared with the team, and meetings shared with
 * the team in which they are a listed participant (named speakers are participants too).
 */
export async function teamMemberCounts(
  db: Db,
  teamId: string,
  members: readonly { userId: string; name: string }[],
): Promise<Map<string, { recorded: number; attended: number }>> {
  const counts = new Map(members.map((m) => [m.userId, { recorded: 0, attended: 0 }]));
  if (members.length === 0) return counts;
  const recorded = await db
    .selectFrom('meetings')
    .where('team_id', '=', teamId)
    .where(
      'owner_id',
      'in',
      members.map((m) => m.userId),
    )
    .select(['owner_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy('owner_id')
    .execute();
  for (const row of recorded) counts.get(row.owner_id)!.recorded = Number(row.n);
  const names = [...new Set(members.map((m) => m.name.trim().toLowerCase()).filter((n) => n !== ''))];
  if (names.length === 0) return counts;
  const attended = await db
    .selectFrom('meeting_participants as p')
    .innerJoin('meetings as m', 'm.id', 'p.meeting_id')
    .where('m.team_id', '=', teamId)
    .where('p.name_lower', 'in', names)
    .select(['p.name_lower', (eb) => eb.fn.count<number | string>('p.meeting_id').distinct().as('n')])
    .groupBy('p.name_lower')
    .execute();
  const byName = new Map(attended.map((r) => [r.name_lower, Number(r.n)]));
  for (const member of members) counts.get(member.userId)!.attended = byName.get(member.name.trim().toLowerCase()) ?? 0;
  return counts;
}

/** Of these meetings, those shared with the team now. */
export async function sharedWithTeam(db: Db, teamId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('meetings')
    .select('id')
    .where('team_id', '=', teamId)
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** Of these people, those recording a meeting now (status recording: the browser is still sending its audio). */
export async function peopleRecording(db: Db, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('meetings')
    .select('owner_id')
    .distinct()
    .where('status', '=', 'recording')
    .where('owner_id', 'in', [...userIds])
    .execute();
  return new Set(rows.map((r) => r.owner_id));
}

/** The caller's meeting being recorded now, for the live transcript (its capture sources name the channels). */
export async function recordingOf(db: Db, ownerId: string, id: string) {
  return db
    .selectFrom('meetings')
    .select(['status', 'audio_sources', 'team_id'])
    .where('id', '=', id)
    .where(readableBy(ownerOnly(ownerId)))
    .executeTakeFirst();
}

export async function ownsMeeting(db: Db, ownerId: string, id: string): Promise<boolean> {
  return (await findOwned(db, ownerId, id)) !== undefined;
}

/**
 * What other features read of a meeting before its transcript (by id: their jobs are the meeting's
 * own): one row, so announcing a state or deciding whether to start never reads the transcript.
 */
export async function transcriptHeaderOf(db: Db, meetingId: string) {
  const row = await db
    .selectFrom('meetings')
    .select(['owner_id', 'team_id', 'title', 'started_at', 'source', 'options', 'status', 'is_sample', 'transcript_revision'])
    .where('id', '=', meetingId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    ownerId: row.owner_id,
    teamId: row.team_id,
    title: row.title,
    startedAt: row.started_at,
    /** How it came in: recorded (mic), uploaded on /record, imported as a transcript, or a sample. */
    source: row.source,
    options: parseOptions(row.options),
    status: row.status,
    isSample: row.is_sample === 1,
    transcriptRevision: row.transcript_revision,
  };
}

/** What the notes feature reads of a meeting to write its notes: the header, speakers and transcript. */
export async function notesSourceOf(db: Db, meetingId: string) {
  const [header, speakers, segments] = await Promise.all([
    transcriptHeaderOf(db, meetingId),
    db.selectFrom('meeting_speakers').select(['id', 'label', 'display_name']).where('meeting_id', '=', meetingId).orderBy('position').execute(),
    db
      .selectFrom('transcript_segments')
      .select(['id', 'speaker_id', 'start_ms', 'end_ms', 'text'])
      .where('meeting_id', '=', meetingId)
      .orderBy('start_ms')
      .orderBy('id')
      .execute(),
  ]);
  if (!header) return undefined;
  return {
    ...header,
    speakers: speakers.map((s) => ({ id: s.id, label: s.label, name: s.display_name })),
    segments: segments.map((s) => ({ id: s.id, speakerId: s.speaker_id, startMs: s.start_ms, endMs: s.end_ms, text: s.text })),
  };
}

/** The summary the notes wrote (searchable with the meeting). */
export async function setSummary(db: Db, meetingId: string, summary: string | null): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx.updateTable('meetings').set({ summary, updated_at: nowIso() }).where('id', '=', meetingId).execute();
    await reindexMeeting(trx, meetingId);
  });
}

/** Every meeting id of a person, oldest first (the data export). */
export async function ownedMeetingIds(db: Db, ownerId: string): Promise<string[]> {
  const rows = await db.selectFrom('meetings').select('id').where('owner_id', '=', ownerId).orderBy('started_at').orderBy('id').execute();
  return rows.map((r) => r.id);
}

/** The notes items a meeting is found by, replaced whenever the notes feature writes or edits them. */
export async function setSearchableNotes(db: Db, meetingId: string, notes: SearchableNote[]): Promise<void> {
  await inTransaction(db, (trx) => indexNotes(trx, meetingId, notes));
}
