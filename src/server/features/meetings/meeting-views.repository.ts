import type { Db } from '#server/db/create-db.ts';
import { readableBy, type MeetingReader } from './meeting-access.ts';

/**
 * The meetings feature's read API for aggregates elsewhere (insights): queries other features wrap
 * and group, never the tables themselves. Who may read what is decided here (meeting-access.ts), so
 * an aggregate built on these cannot reach a row its reader may not read.
 */

/** The meetings `reader` may read: their own and those shared with their teams. */
export function readableMeetingsView(db: Db, reader: MeetingReader) {
  return db.selectFrom('meetings').where(readableBy(reader)).select(['id', 'title', 'started_at', 'is_sample', 'owner_id', 'duration_seconds']);
}

/** Every transcript turn of those meetings, with its meeting and its speaker's name (null when unnamed). */
export function readableTurnsView(db: Db, reader: MeetingReader) {
  return db
    .selectFrom('transcript_segments as s')
    .innerJoin('meetings as m', 'm.id', 's.meeting_id')
    .leftJoin('meeting_speakers as sp', 'sp.id', 's.speaker_id')
    .where(readableBy(reader, 'm'))
    .select(['s.meeting_id', 'm.title', 'm.started_at', 'm.is_sample', 'm.owner_id', 'sp.display_name as speaker', 's.start_ms', 's.end_ms', 's.sentiment']);
}

/** What a reader's aggregates are built on. */
export type MeetingViews = {
  reader: MeetingReader;
  meetings: ReturnType<typeof readableMeetingsView>;
  turns: ReturnType<typeof readableTurnsView>;
};
