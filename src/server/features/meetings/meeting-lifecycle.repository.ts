import type { Db } from '#server/db/create-db.ts';
import { MEETING_TRANSITIONS, type MeetingTransition } from './meeting-lifecycle.ts';
import { insertMeeting, writeTranscript, type NewMeeting, type TranscriptInput } from './meetings.repository.ts';
import type { MeetingsTable } from './meetings.table.ts';

type StatusFields = Partial<Pick<MeetingsTable, 'failure_reason' | 'audio_key' | 'audio_mime' | 'audio_bytes' | 'duration_seconds'>>;

/** Applies a lifecycle transition (and the fields that come with it) if the meeting is in a status it may start from. */
export async function transition(db: Db, meetingId: string, name: MeetingTransition, fields: StatusFields = {}): Promise<boolean> {
  const { from, to } = MEETING_TRANSITIONS[name];
  const result = await db
    .updateTable('meetings')
    .set({ ...fields, status: to, updated_at: new Date().toISOString() })
    .where('id', '=', meetingId)
    .where('status', 'in', [...from])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Stores a finished transcription and makes the meeting ready, in one transaction (nothing half-stored). */
export async function completeTranscription(db: Db, meetingId: string, transcript: TranscriptInput): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('meetings').select('status').where('id', '=', meetingId).executeTakeFirst();
    if (!row || !(MEETING_TRANSITIONS.transcriptionSucceeded.from as readonly string[]).includes(row.status)) return false;
    await writeTranscript(trx, meetingId, transcript);
    return transition(trx, meetingId, 'transcriptionSucceeded', { failure_reason: null });
  });
}

/**
 * A meeting made from an imported transcript: born ready, since it has no audio to transcribe. The
 * meeting, its speakers, segments, participants and search rows are written in one transaction, so a
 * failure leaves nothing half-made behind.
 */
export async function createImportedMeeting(db: Db, meeting: Omit<NewMeeting, 'status' | 'source'>, transcript: TranscriptInput): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const id = await insertMeeting(trx, { ...meeting, status: 'ready', source: 'import' });
    await writeTranscript(trx, id, transcript);
    return id;
  });
}

/** Marks the upload carrying a meeting's audio, if the meeting still waits for its audio. */
export async function attachUpload(db: Db, ownerId: string, meetingId: string, uploadId: string): Promise<'attached' | 'not-found' | 'has-audio'> {
  const meeting = await db
    .selectFrom('meetings')
    .select(['status', 'audio_key'])
    .where('id', '=', meetingId)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  if (!meeting) return 'not-found';
  if (meeting.audio_key || meeting.status !== 'recording') return 'has-audio';
  await db.updateTable('meetings').set({ upload_id: uploadId }).where('id', '=', meetingId).execute();
  return 'attached';
}

export async function detachUpload(db: Db, uploadId: string): Promise<void> {
  await db.updateTable('meetings').set({ upload_id: null }).where('upload_id', '=', uploadId).execute();
}

/** What a transcription job reads of its meeting. */
export async function transcriptionSource(db: Db, meetingId: string) {
  return db.selectFrom('meetings').select(['owner_id', 'audio_key', 'options', 'audio_sources']).where('id', '=', meetingId).executeTakeFirst();
}

/** Meetings whose audio is stored and whose transcription should be under way (a crash may have lost the job). */
export async function processingMeetings(db: Db): Promise<{ id: string; ownerId: string }[]> {
  const rows = await db.selectFrom('meetings').select(['id', 'owner_id']).where('status', '=', 'processing').where('audio_key', 'is not', null).execute();
  return rows.map((r) => ({ id: r.id, ownerId: r.owner_id }));
}
