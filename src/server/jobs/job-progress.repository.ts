import type { Db } from '#server/db/create-db.ts';
import { QUEUE_STAGES, type QueueStage } from '#shared/contracts/job-progress.ts';
import type { JobProgress, JobState } from './job-queue.ts';

/** Where running jobs are (both queue adapters keep it here): one row per queue and key. */

export async function recordJobProgress(db: Db, queue: string, key: string, progress: JobProgress): Promise<void> {
  const updatedAt = new Date().toISOString();
  // Every field written each time: a stage reported after a retry's must not keep its retryAt or part.
  const values = {
    stage: progress.stage,
    progress: progress.fraction,
    part: progress.part ?? null,
    parts: progress.parts ?? null,
    retry_at: progress.retryAt ?? null,
    updated_at: updatedAt,
  };
  await db
    .insertInto('job_progress')
    .values({ queue, key, ...values })
    .onConflict((oc) => oc.columns(['queue', 'key']).doUpdateSet(values))
    .execute();
}

export async function clearJobProgress(db: Db, queue: string, key: string): Promise<void> {
  await db.deleteFrom('job_progress').where('queue', '=', queue).where('key', '=', key).execute();
}

type StoredProgress<S extends string> = Pick<JobState<S>, 'stage' | 'progress' | 'part' | 'parts' | 'retryAt'>;

/**
 * The progress of each key that has some. A stored stage outside `stages` and the queue's own reads as
 * null: rows written by older versions hold free text ("part 2 of 5"), which is not a stage.
 */
export async function jobProgressOf<S extends string>(db: Db, queue: string, keys: string[], stages: readonly S[]): Promise<Map<string, StoredProgress<S>>> {
  if (keys.length === 0) return new Map();
  const known = new Set<string>([...QUEUE_STAGES, ...stages]);
  const isStage = (stage: string | null): stage is S | QueueStage => stage !== null && known.has(stage);
  const rows = await db
    .selectFrom('job_progress')
    .select(['key', 'stage', 'progress', 'part', 'parts', 'retry_at'])
    .where('queue', '=', queue)
    .where('key', 'in', keys)
    .execute();
  return new Map(
    rows.map((r) => [
      r.key,
      {
        stage: isStage(r.stage) ? r.stage : null,
        progress: r.progress === null ? null : Number(r.progress),
        part: r.part === null ? null : Number(r.part),
        parts: r.parts === null ? null : Number(r.parts),
        retryAt: r.retry_at,
      },
    ]),
  );
}
