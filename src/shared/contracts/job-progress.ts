import { z } from 'zod/mini';

/**
 * Where a background job is (transcription, notes, exports): a stage from its kind's fixed list, the
 * fraction done, the part under way of work done in parts, and when a retry is due. Stages are names,
 * not words: the web says them in its own words (and never prints one it does not know).
 */

/**
 * The queue's own stages, every kind has them: waiting for a worker, and in backoff after a failure.
 * The lists below are what a kind's runs report besides.
 */
export const QUEUE_STAGES = ['queued', 'waiting to retry'] as const;
export type QueueStage = (typeof QUEUE_STAGES)[number];

/** A meeting's transcription, in the order a run passes through them. */
export const TRANSCRIPTION_RUN_STAGES = ['decoding', 'transcribing', 'identifying speakers', 'saving'] as const;
export type TranscriptionRunStage = (typeof TRANSCRIPTION_RUN_STAGES)[number];
export const TRANSCRIPTION_STAGES = [...QUEUE_STAGES, ...TRANSCRIPTION_RUN_STAGES] as const;
export type TranscriptionStage = (typeof TRANSCRIPTION_STAGES)[number];

/** A meeting's notes: written a part at a time (`part` of `parts`). */
export const NOTES_RUN_STAGES = ['writing notes'] as const;
export type NotesRunStage = (typeof NOTES_RUN_STAGES)[number];

/** A person's data export: the archive being built. */
export const DATA_EXPORT_RUN_STAGES = ['exporting'] as const;
export type DataExportRunStage = (typeof DATA_EXPORT_RUN_STAGES)[number];

const fraction = z.number().check(z.gte(0), z.lte(1));
const count = z.number().check(z.int(), z.positive());

/**
 * The progress fields a status or event carries beside its stage. Optional: servers before them sent
 * only the stage and the fraction (`progress`).
 */
export const progressDetailShape = {
  /** Work done in parts: the part under way (1-based) of how many. */
  part: z.optional(z.nullable(count)),
  parts: z.optional(z.nullable(count)),
  /** While waiting to retry: when the next try is due (ISO 8601). */
  retryAt: z.optional(z.nullable(z.iso.datetime({ offset: true }))),
};

/**
 * A stage of one kind's list. A name outside it (an older or newer server's, or the free text
 * servers once sent, such as "waiting to retry (in 30 s)") reads as null, the unknown stage, instead
 * of failing the whole response or event.
 */
export const stageSchema = <const S extends readonly [string, ...string[]]>(stages: S) => z.catch(z.nullable(z.enum(stages)), null);

export const TranscriptionStageSchema = stageSchema(TRANSCRIPTION_STAGES);

/** The fraction done: 0..1 where the work can tell, null where it cannot. */
export const ProgressFractionSchema = z.nullable(fraction);
