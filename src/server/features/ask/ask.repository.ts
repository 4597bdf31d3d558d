import type { Db } from '#server/db/create-db.ts';

/** The ask feature's own tables: segment embeddings and which meeting revisions they cover. */

export type StoredEmbedding = { segmentId: string; meetingId: string; vector: Float32Array };

export const encodeVector = (vector: Float32Array): string => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64');

export function decodeVector(text: string): Float32Array {
  const bytes = Buffer.from(text, 'base64');
  // A copy on an aligned buffer: Float32Array needs a 4-byte aligned offset, Buffer's pool gives none.
  const aligned = new Uint8Array(bytes.byteLength);
  aligned.set(bytes);
  return new Float32Array(aligned.buffer, 0, Math.floor(bytes.byteLength / 4));
}

/** The revisions of these meetings embedded with `model` (meetings not embedded are absent). */
export async function embeddedRevisions(db: Db, meetingIds: string[], model: string): Promise<Map<string, number>> {
  const revisions = new Map<string, number>();
  for (let i = 0; i < meetingIds.length; i += 500) {
    const rows = await db
      .selectFrom('ask_embedded_meetings')
      .select(['meeting_id', 'transcript_revision'])
      .where('meeting_id', 'in', meetingIds.slice(i, i + 500))
      .where('model', '=', model)
      .execute();
    for (const row of rows) revisions.set(row.meeting_id, Number(row.transcript_revision));
  }
  return revisions;
}

/** The text hashes of a meeting's stored embeddings with `model`, by segment. */
export async function storedHashes(db: Db, meetingId: string, model: string): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('ask_segment_embeddings')
    .select(['segment_id', 'text_hash'])
    .where('meeting_id', '=', meetingId)
    .where('model', '=', model)
    .execute();
  return new Map(rows.map((r) => [r.segment_id, r.text_hash]));
}

/**
 * Replaces a meeting's embeddings: `fresh` written (or rewritten), every other segment of the meeting
 * not in `keep` dropped (a model change, a deleted segment), and the revision recorded; one transaction.
 */
export async function saveEmbeddings(
  db: Db,
  meetingId: string,
  model: string,
  revision: number,
  fresh: { segmentId: string; textHash: string; vector: Float32Array }[],
  keep: ReadonlySet<string>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('ask_segment_embeddings').select(['segment_id', 'model']).where('meeting_id', '=', meetingId).execute();
    const stale = existing.filter((r) => r.model !== model || !keep.has(r.segment_id)).map((r) => r.segment_id);
    for (let i = 0; i < stale.length; i += 500)
      await trx
        .deleteFrom('ask_segment_embeddings')
        .where('segment_id', 'in', stale.slice(i, i + 500))
        .execute();
    for (const item of fresh) {
      const row = { meeting_id: meetingId, model, text_hash: item.textHash, vector: encodeVector(item.vector) };
      await trx
        .insertInto('ask_segment_embeddings')
        .values({ segment_id: item.segmentId, ...row })
        .onConflict((oc) => oc.column('segment_id').doUpdateSet(row))
        .execute();
    }
    await trx
      .insertInto('ask_embedded_meetings')
      .values({ meeting_id: meetingId, model, transcript_revision: revision })
      .onConflict((oc) => oc.column('meeting_id').doUpdateSet({ model, transcript_revision: revision }))
      .execute();
  });
}

/**
 * The stored embeddings of these meetings with `model`, a batch of meetings at a time, each batch
 * handed to `visit` and let go: the caller keeps only its best matches, so memory is bounded by a
 * batch, not by how many meetings a person has.
 */
export async function forEachEmbeddingBatch(
  db: Db,
  meetingIds: string[],
  model: string,
  visit: (batch: StoredEmbedding[]) => void,
  meetingsPerBatch = 20,
): Promise<void> {
  for (let i = 0; i < meetingIds.length; i += meetingsPerBatch) {
    const rows = await db
      .selectFrom('ask_segment_embeddings')
      .select(['segment_id', 'meeting_id', 'vector'])
      .where('meeting_id', 'in', meetingIds.slice(i, i + meetingsPerBatch))
      .where('model', '=', model)
      .execute();
    visit(rows.map((r) => ({ segmentId: r.segment_id, meetingId: r.meeting_id, vector: decodeVector(r.vector) })));
  }
}
