import type { Db } from '#server/db/create-db.ts';
import { readableBy, type MeetingReader } from './meeting-access.ts';

/**
 * Reads of ready meetings across a reader's archive, for features that keep their own view of the
 * transcripts (Ask's passage index): which meetings, at which transcript revision, and their
 * transcripts in bulk. Every read is scoped to what the reader may read.
 */

/** A ready meeting the reader may read, with what a view built from it must follow (rebuilt when any of these change). */
export type ReadyMeeting = { id: string; title: string; startedAt: string; updatedAt: string; transcriptRevision: number };

/** The reader's ready meetings (or the one named, when readable), with the revision of each transcript. */
export async function readyMeetings(db: Db, reader: MeetingReader, meetingId?: string): Promise<ReadyMeeting[]> {
  let query = db
    .selectFrom('meetings')
    .select(['id', 'title', 'started_at', 'updated_at', 'transcript_revision'])
    .where(readableBy(reader))
    .where('status', '=', 'ready');
  if (meetingId !== undefined) query = query.where('id', '=', meetingId);
  const rows = await query.execute();
  return rows.map((r) => ({ id: r.id, title: r.title, startedAt: r.started_at, updatedAt: r.updated_at, transcriptRevision: r.transcript_revision }));
}

/** A ready meeting's transcript: its summary, its speakers by name and its segments in order. */
export type ReadyTranscript = ReadyMeeting & {
  summary: string | null;
  speakers: { id: string; name: string }[];
  segments: { id: string; speakerId: string | null; startMs: number; endMs: number; text: string }[];
};

/** The transcripts of these meetings that the reader may read (any other id is left out), in three queries. */
export async function readyTranscripts(db: Db, reader: MeetingReader, meetingIds: string[]): Promise<ReadyTranscript[]> {
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
      .select(['id', 'meeting_id', 'speaker_id', 'start_ms', 'end_ms', 'text'])
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
    segments: (segmentsOf.get(m.id) ?? []).map((s) => ({
      id: s.id,
      speakerId: s.speaker_id,
      startMs: Number(s.start_ms),
      endMs: Number(s.end_ms),
      text: s.text,
    })),
  }));
}
