import type { FastifyBaseLogger as Logger } from 'fastify';
import { z } from 'zod';
import { TRANSCRIPTION_RUN_STAGES, type TranscriptionRunStage } from '#shared/contracts/job-progress.ts';
import type { MeetingProcessing } from '#shared/contracts/meetings.ts';
import type { MeetingProgressEvent } from '#shared/contracts/realtime.ts';
import type { EventRecorder } from '#server/events/domain-events.ts';
import type { JobQueue, JobState } from '#server/jobs/job-queue.ts';
import type { BlobStore } from '#server/lib/blob-store.ts';
import type { MeetingsService } from '../meetings/meetings.service.ts';
import type { StatusResponse } from '#shared/contracts/status.ts';
import type { TranscriptionEngine } from './engines/engine.ts';
import type { EngineRegistry } from './engines/select-engine.ts';
import { transcriptionStatus, type TranscriptionStatusDeps } from './transcription-status.ts';
import { classifyFailure, describeVoices, transcribeMeeting, type PipelineDeps } from './pipeline.ts';
import type { SpeakerIdentifier, VoicePath } from './speakers/identify-speakers.ts';
import type { VoiceTurn } from './speakers/voice-embedding-protocol.ts';

export type { VoicePath } from './speakers/identify-speakers.ts';
export type { VoiceTurn } from './speakers/voice-embedding-protocol.ts';
export type { KnownVoices, NameKnownVoices } from './pipeline-types.ts';
export { voiceComparison } from './speakers/compare-voices.ts';

export type TranscriptionService = {
  /** A recording was stored: queue its transcription (durably) and start on it soon. */
  enqueue: (meetingId: string) => Promise<void>;
  /** The Retry of a failed meeting: back to processing and queued again. */
  retry: (ownerId: string, meetingId: string) => ReturnType<MeetingsService['retryTranscription']>;
  /** Where each processing meeting's job is (stage and fraction), for the meetings API. */
  processingOf: (meetingIds: string[]) => Promise<Map<string, MeetingProcessing>>;
  /** Queues again the meetings a crash left processing without a job (workers run it at start). */
  requeueOrphans: () => Promise<void>;
  /** The job of a meeting as the queue has it (attempts, state), for tests and diagnostics. */
  jobOf: (meetingId: string) => Promise<JobState<TranscriptionRunStage> | undefined>;
  /** Engines (which is in use and why not the others), installed models, VAD and the queue, for /status. */
  status: () => Promise<StatusResponse['transcription']>;
  /** Resolves when no transcription job is queued or running (tests, graceful waits). */
  idle: () => Promise<void>;
  /** How voices are described for voice profiles now (Settings says which). */
  voicePath: () => Promise<VoicePath>;
  /**
   * Each speaker's voice in a meeting's recording, described from their turns by the speaker path
   * diarization uses (null where one spoke too little); undefined when the meeting has no recording.
   * The recording is decoded for this and let go: only the numbers leave.
   */
  voicesOf: (
    meetingId: string,
    speakers: ReadonlyArray<readonly VoiceTurn[]>,
    options?: { signal?: AbortSignal },
  ) => Promise<{ path: VoicePath; voices: (Float32Array | null)[] } | undefined>;
};

/** The transcription's name among the domain events' subscribers. */
export const TRANSCRIPTION_SUBSCRIBER = 'transcription';

type ServiceDeps = {
  jobs: JobQueue;
  /** Whether a stored recording's event has yet to reach the transcription (its job is as good as queued). */
  events: Pick<EventRecorder, 'pending'>;
  meetings: MeetingsService;
  blobs: BlobStore;
  /** The installation's engines (status) and the one jobs transcribe with. */
  engines: EngineRegistry;
  engine: TranscriptionEngine;
  modelsDir: string;
  /** PARLEY_AUTO_MODELS, and the recommended models the installation lacks (for /status). */
  autoModels: TranscriptionStatusDeps['autoModels'];
  identifySpeakers: PipelineDeps['identifySpeakers'];
  speakerWindows: PipelineDeps['speakerWindows'];
  /** The speaker path's voice descriptions (voice profiles). */
  voices: Pick<SpeakerIdentifier, 'voicePath' | 'embedVoices'>;
  /** Known voices named before a transcript is stored: the voice-profiles feature's port. */
  nameKnownVoices?: PipelineDeps['nameKnownVoices'];
  settingsOf: PipelineDeps['settingsOf'];
  vocabularyOf?: PipelineDeps['vocabularyOf'];
  maxRecordingHours: PipelineDeps['maxRecordingHours'];
  stageLimits?: PipelineDeps['stageLimits'];
  log: Logger;
  maxAttempts: number;
  concurrency: number;
  retryDelayMs: number;
};

/** Progress events at most this often per job: enough for a smooth bar, little for the socket. */
const PROGRESS_INTERVAL_MS = 500;

const TranscribePayload = z.object({ meetingId: z.uuid(), ownerId: z.string() });
type TranscribePayload = z.infer<typeof TranscribePayload>;

/**
 * Meetings' transcription as durable jobs on the job queue ("transcribe"): the pipeline does the
 * work, the meetings service records the outcome, and every change reaches the meeting's readers (its
 * owner, and its team's members while it is shared) over /realtime.
 */
export function createTranscriptionService(deps: ServiceDeps): TranscriptionService {
  const { meetings } = deps;
  // Synchronous on purpose: the owner comes with the job, so events leave in the order they happen
  // (the meetings service keeps that order for the team's members too).
  const publish = (ownerId: string, meetingId: string, event: Omit<MeetingProgressEvent, 'type' | 'meetingId'>) =>
    meetings.announce(meetingId, ownerId, { type: 'meeting.progress', meetingId, ...event });

  const jobs = deps.jobs.define<TranscribePayload, TranscriptionRunStage>({
    name: 'transcribe',
    label: 'transcription',
    payload: TranscribePayload,
    stages: TRANSCRIPTION_RUN_STAGES,
    keyOf: (p) => p.meetingId,
    concurrency: deps.concurrency,
    maxAttempts: deps.maxAttempts,
    retryDelayMs: deps.retryDelayMs,
    classify: classifyFailure,
    run: async ({ meetingId, ownerId }, ctx) => {
      let lastSent = 0;
      await transcribeMeeting(deps, meetingId, ctx.signal, (stage, progress) => {
        ctx.progress(stage, progress);
        const now = Date.now();
        if (stage === 'transcribing' && progress !== null && progress > 0 && progress < 1 && now - lastSent < PROGRESS_INTERVAL_MS) return;
        lastSent = now;
        publish(ownerId, meetingId, { status: 'processing', stage, progress, failureReason: null });
      });
    },
    onSettled: async ({ meetingId, ownerId }, outcome) => {
      if (outcome.status === 'succeeded') {
        // What follows a stored transcript (notes, Ask's index, emails) subscribes to its transcript.ready event.
        return publish(ownerId, meetingId, { status: 'ready', stage: null, progress: 1, failureReason: null });
      }
      if (outcome.status === 'retrying') {
        const retryAt = outcome.runAfter.toISOString();
        return publish(ownerId, meetingId, { status: 'processing', stage: 'waiting to retry', progress: null, retryAt, failureReason: null });
      }
      await meetings.failTranscription(meetingId, outcome.error);
      return publish(ownerId, meetingId, { status: 'failed', stage: null, progress: null, failureReason: outcome.error });
    },
  });

  const enqueueFor = async (meetingId: string, ownerId: string): Promise<void> => {
    // Told before the job is queued (as the notes are): a worker quick to claim it would already have
    // announced its first stage, which a late "queued" would cover on open pages.
    publish(ownerId, meetingId, { status: 'processing', stage: 'queued', progress: null, failureReason: null });
    await jobs.enqueue({ meetingId, ownerId });
  };
  /** Enqueues under way: idle() waits for them too (an upload hands its meeting over without waiting). */
  const enqueuing = new Set<Promise<void>>();
  const tracked = (work: Promise<void>): Promise<void> => {
    enqueuing.add(work);
    const settle = () => enqueuing.delete(work);
    work.then(settle, settle);
    return work;
  };

  return {
    enqueue: (meetingId) =>
      tracked(
        (async () => {
          const source = await meetings.transcriptionSource(meetingId);
          if (source) await enqueueFor(meetingId, source.ownerId);
        })(),
      ),
    retry: async (ownerId, meetingId) => {
      const result = await meetings.retryTranscription(ownerId, meetingId);
      if (result === 'retried') await tracked(enqueueFor(meetingId, ownerId));
      return result;
    },
    processingOf: async (meetingIds) => {
      const states = await jobs.states(meetingIds);
      const processing = new Map<string, MeetingProcessing>();
      for (const [meetingId, state] of states) {
        if (state.state !== 'queued' && state.state !== 'running') continue;
        const progress = state.progress === null ? null : Math.min(1, Math.max(0, state.progress));
        // Nothing reported by a queued job: its enqueue said 'queued'. A running job's unknown stage stays unknown.
        const stage = state.stage ?? (state.state === 'queued' ? 'queued' : null);
        processing.set(meetingId, { stage, progress, part: state.part, parts: state.parts, retryAt: state.retryAt });
      }
      // A recording just stored whose event no worker has taken yet: its job is queued in all but name.
      for (const meetingId of meetingIds.filter((id) => !processing.has(id))) {
        if (await deps.events.pending(TRANSCRIPTION_SUBSCRIBER, { type: 'meeting', id: meetingId })) {
          processing.set(meetingId, { stage: 'queued', progress: null });
        }
      }
      return processing;
    },
    requeueOrphans: async () => {
      // A meeting stored just before a crash may have no job yet: its status says it needs one.
      const orphans = await meetings.processing();
      const states = await jobs.states(orphans.map((o) => o.id));
      for (const { id, ownerId } of orphans) {
        const state = states.get(id)?.state;
        if (state !== 'queued' && state !== 'running') await tracked(enqueueFor(id, ownerId));
      }
    },
    jobOf: async (meetingId) => (await jobs.states([meetingId])).get(meetingId),
    status: () => transcriptionStatus({ engines: deps.engines, modelsDir: deps.modelsDir, autoModels: deps.autoModels, queueCounts: () => jobs.counts() }),
    idle: async () => {
      while (enqueuing.size > 0) await Promise.allSettled([...enqueuing]);
      await deps.jobs.idle();
    },
    voicePath: () => deps.voices.voicePath(),
    voicesOf: async (meetingId, speakers, options = {}) => {
      const source = await meetings.transcriptionSource(meetingId);
      if (!source?.audioKey) return undefined;
      return deps.blobs.withLocalFile(source.audioKey, (audioPath) => describeVoices(deps.voices.embedVoices, audioPath, speakers, options.signal));
    },
  };
}
