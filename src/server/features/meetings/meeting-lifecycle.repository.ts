import { inTransaction } from '#server/db/transaction.ts';
import { sql, type Updateable } from 'kysely';
import type { Db } from '#server/db/create-db.ts';
import { BLOB_STEM_LENGTH, blobStem } from '#server/lib/blob-store.ts';
import { ABANDONED_REASON, MEETING_TRANSITIONS, type MeetingTransition } from './meeting-lifecycle.ts';
import { insertMeeting, writeTranscript, type NewMeeting, type TranscriptInput } from './meetings.repository.ts';
import type { MeetingsTable } from './meetings.table.ts';

type StatusFields = Partial<Pick<Updateable<MeetingsTable>, 'failure_reason' | 'audio_key' | 'audio_mime' | 'audio_bytes' | 'duration_seconds'>>;

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
  return inTransaction(db, async (trx) => {
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
  return inTransaction(db, async (trx) => {
    const id = await insertMeeting(trx, { ...meeting, status: 'ready', source: 'import' });
    await writeTranscript(trx, id, transcript);
    return id;
  });
}

type AttachResult =
  | { outcome: 'attached' }
  | { outcome: 'not-found' }
  | { outcome: 'has-audio' }
  /** Failed without audio (unreadable, or abandoned): it takes no more, for the reason given. */
  | { outcome: 'failed'; reason: string | null }
  | { outcome: 'busy'; uploadId: string };

/**
 * Marks the upload carrying a meeting's audio, if the meeting still waits for its audio and carries
 * no other upload (or the one named by `replacing`). One conditional update, so two uploads racing
 * for one meeting cannot both be attached.
 */
export async function attachUpload(db: Db, ownerId: string, meetingId: string, uploadId: string, replacing: string | null = null): Promise<AttachResult> {
  const result = await db
    .updateTable('meetings')
    .set({ upload_id: uploadId })
    .where('id', '=', meetingId)
    .where('owner_id', '=', ownerId)
    .where('status', '=', 'recording')
    .where('audio_key', 'is', null)
    .where((eb) => (replacing ? eb.or([eb('upload_id', 'is', null), eb('upload_id', '=', replacing)]) : eb('upload_id', 'is', null)))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) > 0) return { outcome: 'attached' };
  const meeting = await db
    .selectFrom('meetings')
    .select(['status', 'audio_key', 'upload_id', 'failure_reason'])
    .where('id', '=', meetingId)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  if (!meeting) return { outcome: 'not-found' };
  if (meeting.status === 'failed' && !meeting.audio_key) return { outcome: 'failed', reason: meeting.failure_reason };
  if (meeting.audio_key || meeting.status !== 'recording' || !meeting.upload_id) return { outcome: 'has-audio' };
  return { outcome: 'busy', uploadId: meeting.upload_id };
}

export async function detachUpload(db: Db, uploadId: string): Promise<void> {
  await db.updateTable('meetings').set({ upload_id: null }).where('upload_id', '=', uploadId).execute();
}

/**
 * The recordingAbandoned transition for the meeting an expired upload carried, or for meetings still
 * recording that were created before `createdBefore` and wait on no upload under way (none, or one
 * not among `liveUploadIds`: its files are gone); answers how many.
 */
export async function abandonRecordings(db: Db, which: { uploadId: string } | { createdBefore: Date; liveUploadIds: ReadonlySet<string> }): Promise<number> {
  const { from, to } = MEETING_TRANSITIONS.recordingAbandoned;
  let update = db
    .updateTable('meetings')
    .set({ status: to, failure_reason: ABANDONED_REASON, upload_id: null, updated_at: new Date().toISOString() })
    .where('status', 'in', [...from]);
  if ('uploadId' in which) {
    update = update.where('upload_id', '=', which.uploadId);
  } else {
    update = update.where('created_at', '<', which.createdBefore.toISOString());
    const live = [...which.liveUploadIds];
    if (live.length > 0) update = update.where((eb) => eb.or([eb('upload_id', 'is', null), eb('upload_id', 'not in', live)]));
  }
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Uploads meetings still wait on, by meeting (the start-up sweep matches them against the files). */
export async function uploadsInProgress(db: Db): Promise<{ meetingId: string; uploadId: string }[]> {
  const rows = await db.selectFrom('meetings').select(['id', 'upload_id']).where('status', '=', 'recording').where('upload_id', 'is not', null).execute();
  return rows.flatMap((r) => (r.upload_id ? [{ meetingId: r.id, uploadId: r.upload_id }] : []));
}

/**
 * Which of `keys` are some meeting's recording, or a file derived from one (its download in another
 * format: the same "ab/<uuid>" stem, blob-store.ts siblingKey); the rest are files no meeting owns.
 */
export async function audioKeysAmong(db: Db, keys: readonly string[]): Promise<Set<string>> {
  const owned = new Set<string>();
  const stems = [...new Set(keys.map(blobStem))];
  // In slices, so a large blob folder never makes one query with too many parameters.
  for (let i = 0; i < stems.length; i += 500) {
    const slice = stems.slice(i, i + 500);
    // substr (SQLite and PostgreSQL alike) of the stem's length, so a recording answers for its siblings.
    const rows = await db
      .selectFrom('meetings')
      .select('audio_key')
      .where(sql<string>`substr(audio_key, 1, ${sql.lit(BLOB_STEM_LENGTH)})`, 'in', slice)
      .execute();
    for (const row of rows) if (row.audio_key) owned.add(blobStem(row.audio_key));
  }
  return new Set(keys.filter((key) => owned.has(blobStem(key))));
}

/** What a transcription job reads of its meeting. */
export async function transcriptionSource(db: Db, meetingId: string) {
  const row = await db
    .selectFrom('meetings')
    .select(['owner_id', 'team_id', 'audio_key', 'options', 'audio_sources'])
    .where('id', '=', meetingId)
    .executeTakeFirst();
  if (!row) return undefined;
  const participants = await db
    .selectFrom('meeting_participants')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('meeting_id', '=', meetingId)
    .executeTakeFirst();
  return { ...row, participants: Number(participants?.n ?? 0) };
}

/** Meetings whose audio is stored and whose transcription should be under way (a crash may have lost the job). */
export async function processingMeetings(db: Db): Promise<{ id: string; ownerId: string }[]> {
  const rows = await db.selectFrom('meetings').select(['id', 'owner_id']).where('status', '=', 'processing').where('audio_key', 'is not', null).execute();
  return rows.map((r) => ({ id: r.id, ownerId: r.owner_id }));
}
