import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '#server/db/create-db.ts';
import type { BlobStore } from '#server/lib/blob-store.ts';
import type { MeetingProgressEvent } from '#shared/contracts/realtime.ts';
import type { RealtimeHub } from '../realtime/realtime-hub.ts';
import type { TranscriptionEngine } from './engines/engine.ts';
import { createJobRunner } from './jobs/job-runner.ts';
import { enqueueJob, jobOfMeeting } from './jobs/jobs.repository.ts';
import { classifyFailure, transcribeMeeting, type PipelineDeps } from './pipeline.ts';

export type TranscriptionService = {
  /** A recording was stored: queue its transcription (durably) and start on it soon. */
  enqueue: (meetingId: string) => Promise<void>;
  start: () => Promise<void>;
  stop: () => Promise<void>;
  /** Resolves when nothing is runnable or running (tests, graceful shutdown). */
  idle: () => Promise<void>;
};

type ServiceDeps = {
  db: Db;
  blobs: BlobStore;
  engine: TranscriptionEngine;
  identifySpeakers: PipelineDeps['identifySpeakers'];
  settingsOf: PipelineDeps['settingsOf'];
  realtime: RealtimeHub;
  log: FastifyBaseLogger;
  maxAttempts: number;
  concurrency?: number;
  retryDelayMs: number;
  leaseMs?: number;
};

/** Progress events at most this often per job: enough for a smooth bar, little for the socket. */
const PROGRESS_INTERVAL_MS = 500;

/**
 * Meetings' transcription as durable jobs: the job table is the queue, the runner works it, and
 * every change reaches the meeting's owner over /realtime.
 */
export function createTranscriptionService(deps: ServiceDeps): TranscriptionService {
  const { db } = deps;
  // Synchronous on purpose: the owner comes with the job, so events leave in the order they happen.
  const publish = (ownerId: string, meetingId: string, event: Omit<MeetingProgressEvent, 'type' | 'meetingId'>) =>
    deps.realtime.publish(ownerId, { type: 'meeting.progress', meetingId, ...event });
  /** Enqueues under way: idle() waits for them too (an upload hands its meeting over without waiting). */
  const enqueuing = new Set<Promise<void>>();

  const runner = createJobRunner({
    db,
    log: deps.log,
    leaseMs: deps.leaseMs,
    concurrency: deps.concurrency,
    retryDelayMs: deps.retryDelayMs,
    handlers: {
      run: async (job, ctx) => {
        let lastSent = 0;
        await transcribeMeeting(deps, job.meeting_id, ctx.signal, (stage, progress) => {
          ctx.progress(stage, progress);
          const now = Date.now();
          if (stage === 'transcribing' && progress !== null && progress > 0 && progress < 1 && now - lastSent < PROGRESS_INTERVAL_MS) return;
          lastSent = now;
          publish(job.owner_id, job.meeting_id, { status: 'processing', stage, progress, failureReason: null });
        });
      },
      classify: classifyFailure,
      onSettled: async (job, outcome) => {
        if (outcome.status === 'succeeded') return publish(job.owner_id, job.meeting_id, { status: 'ready', stage: null, progress: 1, failureReason: null });
        if (outcome.status === 'retrying') {
          const seconds = Math.max(1, Math.round((outcome.runAfter - Date.now()) / 1000));
          return publish(job.owner_id, job.meeting_id, { status: 'processing', stage: `waiting to retry (in ${seconds} s)`, progress: null, failureReason: null });
        }
        await db
          .updateTable('meetings')
          .set({ status: 'failed', failure_reason: outcome.error, updated_at: new Date().toISOString() })
          .where('id', '=', job.meeting_id)
          .execute();
        return publish(job.owner_id, job.meeting_id, { status: 'failed', stage: null, progress: null, failureReason: outcome.error });
      },
    },
  });

  const queue = async (meetingId: string) => {
    const meeting = await db.selectFrom('meetings').select(['owner_id']).where('id', '=', meetingId).executeTakeFirst();
    if (!meeting) return;
    await enqueueJob(db, { meetingId, ownerId: meeting.owner_id, maxAttempts: deps.maxAttempts });
    publish(meeting.owner_id, meetingId, { status: 'processing', stage: 'queued', progress: null, failureReason: null });
    runner.wake();
  };
  const enqueue = (meetingId: string) => {
    const queued = queue(meetingId);
    enqueuing.add(queued);
    const settle = () => enqueuing.delete(queued);
    queued.then(settle, settle);
    return queued;
  };

  return {
    enqueue,
    start: async () => {
      // A meeting stored just before a crash may have no job yet: its status says it needs one.
      const orphans = await db.selectFrom('meetings').select('id').where('status', '=', 'processing').where('audio_key', 'is not', null).execute();
      for (const { id } of orphans) {
        const job = await jobOfMeeting(db, id);
        if (!job || job.status === 'succeeded' || job.status === 'failed') await enqueue(id);
      }
      runner.start();
    },
    stop: () => runner.stop(),
    idle: async () => {
      while (enqueuing.size > 0) await Promise.allSettled([...enqueuing]);
      await runner.idle();
    },
  };
}
