import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '#server/db/create-db.ts';
import type { BlobStore } from '#server/lib/blob-store.ts';
import { AudioDecodeError, decodeToPcm16k } from '#server/lib/ffmpeg.ts';
import { replaceTranscript } from '../meetings/meetings.repository.ts';
import type { TranscriptionEngine } from './engines/engine.ts';
import { TranscriptionServiceError } from './engines/openai-compatible.ts';

export type TranscriptionQueue = {
  enqueue: (meetingId: string) => void;
  /** Resolves when nothing is queued or running (tests, graceful shutdown). */
  idle: () => Promise<void>;
  /** Picks up meetings left in `processing` by a previous run (a restart loses no work). */
  resume: () => Promise<void>;
};

/**
 * Transcribes meetings one at a time in this process: decode with ffmpeg, recognise, store the
 * segments, and move the meeting to ready — or to failed with a reason the person can read.
 * The durable job queue with retries and progress events replaces this with the transcription
 * work (issue 4); the meeting's status is the persistent record either way.
 */
export function createTranscriptionQueue(deps: { db: Db; blobs: BlobStore; engine: TranscriptionEngine; log: FastifyBaseLogger }): TranscriptionQueue {
  const pending: string[] = [];
  let running: Promise<void> | undefined;

  const fail = async (meetingId: string, reason: string) => {
    await deps.db
      .updateTable('meetings')
      .set({ status: 'failed', failure_reason: reason, updated_at: new Date().toISOString() })
      .where('id', '=', meetingId)
      .execute();
  };

  const transcribe = async (meetingId: string) => {
    const meeting = await deps.db.selectFrom('meetings').select(['audio_key', 'status']).where('id', '=', meetingId).executeTakeFirst();
    if (!meeting || meeting.status !== 'processing' || !meeting.audio_key) return;
    const availability = await deps.engine.checkAvailability();
    if (!availability.available) return fail(meetingId, `No transcription engine is available: ${availability.reason}`);
    try {
      const pcm = await decodeToPcm16k(deps.blobs.pathOf(meeting.audio_key));
      const segments = await deps.engine.transcribe(pcm);
      const spoken = segments.filter((s) => s.text.trim() !== '');
      await replaceTranscript(deps.db, meetingId, {
        speakers: spoken.length > 0 ? [{ label: 'Speaker 1' }] : [],
        segments: spoken.map((s) => ({ speaker: 0, startMs: s.startMs, endMs: s.endMs, text: s.text, confidence: s.confidence })),
      });
      await deps.db.updateTable('meetings').set({ status: 'ready', failure_reason: null, updated_at: new Date().toISOString() }).where('id', '=', meetingId).execute();
    } catch (error) {
      deps.log.warn({ err: error, meetingId }, 'transcription failed');
      const readable = error instanceof AudioDecodeError || error instanceof TranscriptionServiceError;
      await fail(meetingId, readable ? error.message : 'Transcription failed. Try again later.');
    }
  };

  const drain = async () => {
    for (let next = pending.shift(); next !== undefined; next = pending.shift()) {
      await transcribe(next).catch((error: unknown) => deps.log.error({ err: error }, 'transcription queue error'));
    }
    running = undefined;
  };

  return {
    enqueue: (meetingId) => {
      if (!pending.includes(meetingId)) pending.push(meetingId);
      running ??= drain();
    },
    idle: async () => {
      while (running) await running;
    },
    resume: async () => {
      const stuck = await deps.db.selectFrom('meetings').select('id').where('status', '=', 'processing').where('audio_key', 'is not', null).execute();
      for (const row of stuck) {
        if (!pending.includes(row.id)) pending.push(row.id);
      }
      if (pending.length > 0) running ??= drain();
    },
  };
}
