import type { Db } from '#server/db/create-db.ts';

/** The lines of a meeting this provider scored: segment id → hash of the text scored. */
export async function scoredHashes(db: Db, meetingId: string, provider: string): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('emotion_scored_segments')
    .select(['segment_id', 'text_hash'])
    .where('meeting_id', '=', meetingId)
    .where('provider', '=', provider)
    .execute();
  return new Map(rows.map((r) => [r.segment_id, r.text_hash]));
}

/** Records lines as scored (again) by this provider. */
export async function recordScored(db: Db, meetingId: string, provider: string, scored: { segmentId: string; textHash: string }[]): Promise<void> {
  for (const { segmentId, textHash } of scored) {
    const row = { meeting_id: meetingId, provider, text_hash: textHash };
    await db
      .insertInto('emotion_scored_segments')
      .values({ segment_id: segmentId, ...row })
      .onConflict((oc) => oc.column('segment_id').doUpdateSet(row))
      .execute();
  }
}
