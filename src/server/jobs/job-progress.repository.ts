import type { Db } from '#server/db/create-db.ts';

/** Where running jobs are (both queue adapters keep it here): one row per queue and key. */

export async function recordJobProgress(db: Db, queue: string, key: string, stage: string | null, progress: number | null): Promise<void> {
  const updatedAt = new Date().toISOString();
  await db
    .insertInto('job_progress')
    .values({ queue, key, stage, progress, updated_at: updatedAt })
    .onConflict((oc) => oc.columns(['queue', 'key']).doUpdateSet({ stage, progress, updated_at: updatedAt }))
    .execute();
}

export async function clearJobProgress(db: Db, queue: string, key: string): Promise<void> {
  await db.deleteFrom('job_progress').where('queue', '=', queue).where('key', '=', key).execute();
}

export async function jobProgressOf(db: Db, queue: string, keys: string[]): Promise<Map<string, { stage: string | null; progress: number | null }>> {
  if (keys.length === 0) return new Map();
  const rows = await db.selectFrom('job_progress').select(['key', 'stage', 'progress']).where('queue', '=', queue).where('key', 'in', keys).execute();
  return new Map(rows.map((r) => [r.key, { stage: r.stage, progress: r.progress === null ? null : Number(r.progress) }]));
}
