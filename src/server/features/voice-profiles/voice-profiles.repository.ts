import crypto from 'node:crypto';
import type { Db } from '#server/db/create-db.ts';
import type { VoiceConsentsTable, VoiceProfileSamplesTable, VoiceSuggestionsTable } from './voice-profiles.table.ts';

export type ConsentRow = VoiceConsentsTable;
export type SampleRow = VoiceProfileSamplesTable;
export type SuggestionRow = VoiceSuggestionsTable;

export async function profileOf(db: Db, userId: string) {
  return db.selectFrom('voice_profiles').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** The person's profile, made if they have none; an existing one keeps its team unless `teamId` is given. */
export async function ensureProfile(db: Db, userId: string, teamId: string | null | undefined, now: string): Promise<void> {
  const existing = await profileOf(db, userId);
  if (!existing) {
    await db
      .insertInto('voice_profiles')
      .values({ user_id: userId, team_id: teamId ?? null, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    return;
  }
  await db
    .updateTable('voice_profiles')
    .set({ ...(teamId === undefined ? {} : { team_id: teamId }), updated_at: now })
    .where('user_id', '=', userId)
    .execute();
}

export async function setProfileTeam(db: Db, userId: string, teamId: string | null, now: string): Promise<boolean> {
  const result = await db.updateTable('voice_profiles').set({ team_id: teamId, updated_at: now }).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function addSamples(db: Db, rows: Omit<SampleRow, 'id' | 'relearn_error'>[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('voice_profile_samples')
    .values(rows.map((row) => ({ id: crypto.randomUUID(), ...row })))
    .execute();
}

/** Keeps the person's newest `keep` samples (a voice changes; the oldest descriptions give way). */
export async function trimSamples(db: Db, userId: string, keep: number): Promise<void> {
  const old = await db
    .selectFrom('voice_profile_samples')
    .select('id')
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(keep)
    .limit(1000)
    .execute();
  if (old.length > 0)
    await db
      .deleteFrom('voice_profile_samples')
      .where(
        'id',
        'in',
        old.map((r) => r.id),
      )
      .execute();
}

export async function samplesOf(db: Db, userIds: readonly string[]): Promise<SampleRow[]> {
  if (userIds.length === 0) return [];
  return db.selectFrom('voice_profile_samples').selectAll().where('user_id', 'in', userIds).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

/** Samples described otherwise than by `path` (the active one) not yet found impossible to learn again. */
export async function samplesToRelearn(db: Db, path: string): Promise<Pick<SampleRow, 'id'>[]> {
  return db.selectFrom('voice_profile_samples').select('id').where('path', '!=', path).where('relearn_error', 'is', null).limit(10_000).execute();
}

export async function sampleById(db: Db, id: string): Promise<SampleRow | undefined> {
  return db.selectFrom('voice_profile_samples').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A sample learned again (its numbers, the way they were made) or found impossible to (why), only while it is still of `from`. */
export async function settleRelearning(db: Db, id: string, from: string, outcome: { path: string; embedding: string } | { error: string }): Promise<void> {
  await db
    .updateTable('voice_profile_samples')
    .set('error' in outcome ? { relearn_error: outcome.error } : { path: outcome.path, embedding: outcome.embedding, relearn_error: null })
    .where('id', '=', id)
    .where('path', '=', from)
    .execute();
}

/** The profiles a meeting of `ownerId` may be matched against: the owner's own, and those whose person chose one of `teamIds`. */
export async function candidateProfiles(db: Db, ownerId: string, teamIds: readonly string[]) {
  let query = db.selectFrom('voice_profiles').select(['user_id', 'team_id']);
  query = teamIds.length > 0 ? query.where((eb) => eb.or([eb('user_id', '=', ownerId), eb('team_id', 'in', teamIds)])) : query.where('user_id', '=', ownerId);
  return query.execute();
}

/** The profile and every description of the voice go; accepted consents are marked withdrawn, open suggestions of the person dropped. */
export async function deleteProfile(db: Db, userId: string, now: string): Promise<boolean> {
  await db.deleteFrom('voice_profile_samples').where('user_id', '=', userId).execute();
  await db.deleteFrom('voice_suggestions').where('person_id', '=', userId).where('status', '=', 'open').execute();
  await db
    .updateTable('voice_consents')
    .set({ status: 'withdrawn', decided_at: now })
    .where('person_id', '=', userId)
    .where('status', '=', 'accepted')
    .execute();
  const result = await db.deleteFrom('voice_profiles').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function insertConsent(db: Db, row: ConsentRow): Promise<void> {
  await db.insertInto('voice_consents').values(row).execute();
}

export async function consentById(db: Db, id: string): Promise<ConsentRow | undefined> {
  return db.selectFrom('voice_consents').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Every consent asked of the person, answered or not, oldest first (the data export). */
export async function consentsOf(db: Db, personId: string): Promise<ConsentRow[]> {
  return db.selectFrom('voice_consents').selectAll().where('person_id', '=', personId).orderBy('created_at').orderBy('id').limit(1000).execute();
}

export async function pendingConsentsFor(db: Db, personId: string, limit: number): Promise<ConsentRow[]> {
  return db
    .selectFrom('voice_consents')
    .selectAll()
    .where('person_id', '=', personId)
    .where('status', '=', 'pending')
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}

/** A pending request already made for this person and speaker (asking twice sends one request). */
export async function pendingConsentFor(db: Db, personId: string, meetingId: string, speakerId: string): Promise<ConsentRow | undefined> {
  return db
    .selectFrom('voice_consents')
    .selectAll()
    .where('person_id', '=', personId)
    .where('meeting_id', '=', meetingId)
    .where('speaker_id', '=', speakerId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
}

/** Answers a pending request once (an acceptance's voice is then to be learned): false when it was answered already. */
export async function decideConsent(db: Db, id: string, status: 'accepted' | 'declined', teamId: string | null, now: string): Promise<boolean> {
  const result = await db
    .updateTable('voice_consents')
    .set({ status, team_id: teamId, decided_at: now, learning: status === 'accepted' ? 'pending' : null, learning_error: null })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function anySuggestion(db: Db, id: string): Promise<SuggestionRow | undefined> {
  return db.selectFrom('voice_suggestions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Where a voice is learned from: a consent to a profile, or a suggestion accepted in a meeting. */
export type LearningSource = 'consent' | 'suggestion';
const LEARNING_TABLES = { consent: 'voice_consents', suggestion: 'voice_suggestions' } as const;

/**
 * The voice of an accepted consent or suggestion learned (null) or not learnable (`failed`, why); only
 * while it is being learned, so a job run twice settles it once.
 */
export async function settleLearning(
  db: Db,
  source: LearningSource,
  id: string,
  outcome: { learning: null } | { learning: 'failed'; error: string },
): Promise<boolean> {
  const result = await db
    .updateTable(LEARNING_TABLES[source])
    .set({ learning: outcome.learning, learning_error: outcome.learning === 'failed' ? outcome.error : null })
    .where('id', '=', id)
    .where('status', '=', 'accepted')
    .where('learning', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The person's voices being learned, and those that failed since `failedSince`, newest first. */
export async function learningOf(db: Db, personId: string, failedSince: string, limit: number): Promise<ConsentRow[]> {
  return db
    .selectFrom('voice_consents')
    .selectAll()
    .where('person_id', '=', personId)
    .where('status', '=', 'accepted')
    .where((eb) => eb.or([eb('learning', '=', 'pending'), eb.and([eb('learning', '=', 'failed'), eb('decided_at', '>=', failedSince)])]))
    .orderBy('decided_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Records a suggestion once per meeting, speaker and person: one rejected is never asked again. */
export async function insertSuggestion(db: Db, row: Omit<SuggestionRow, 'id'>): Promise<void> {
  await db
    .insertInto('voice_suggestions')
    .values({ id: crypto.randomUUID(), ...row })
    .onConflict((oc) => oc.columns(['meeting_id', 'speaker_id', 'person_id']).doNothing())
    .execute();
}

export async function suggestionsOf(db: Db, meetingId: string): Promise<SuggestionRow[]> {
  return db.selectFrom('voice_suggestions').selectAll().where('meeting_id', '=', meetingId).orderBy('similarity', 'desc').execute();
}

export async function suggestionById(db: Db, meetingId: string, id: string): Promise<SuggestionRow | undefined> {
  return db.selectFrom('voice_suggestions').selectAll().where('meeting_id', '=', meetingId).where('id', '=', id).executeTakeFirst();
}

/** Answers an open suggestion once; accepting one closes the speaker's other open ones. */
export async function decideSuggestion(db: Db, suggestion: SuggestionRow, status: 'accepted' | 'rejected', now: string): Promise<boolean> {
  const result = await db
    .updateTable('voice_suggestions')
    .set({ status, decided_at: now, learning: status === 'accepted' ? 'pending' : null })
    .where('id', '=', suggestion.id)
    .where('status', '=', 'open')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return false;
  if (status === 'accepted')
    await db
      .updateTable('voice_suggestions')
      .set({ status: 'rejected', decided_at: now })
      .where('meeting_id', '=', suggestion.meeting_id)
      .where('speaker_id', '=', suggestion.speaker_id)
      .where('status', '=', 'open')
      .execute();
  return true;
}

/** Delete All Data / Delete Account: everything of the person's voice, and what they asked of others. */
export async function removeAllOf(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('voice_profile_samples').where('user_id', '=', userId).execute();
  await db.deleteFrom('voice_suggestions').where('person_id', '=', userId).execute();
  await db
    .deleteFrom('voice_consents')
    .where((eb) => eb.or([eb('person_id', '=', userId), eb('requested_by', '=', userId)]))
    .execute();
  await db.deleteFrom('voice_profiles').where('user_id', '=', userId).execute();
}
