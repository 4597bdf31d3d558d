import { z } from 'zod/mini';
import { defineEndpoint } from './endpoint.ts';

/** GET /api/v1/status: what this installation transcribes with, shown on the /status page. */
export const EngineStatusSchema = z.object({
  /** pocketsphinx, sherpa-onnx or openai-compatible. */
  name: z.string(),
  /** How it runs, for people: "offline", "offline, model parakeet-tdt-110m-en", "speech service". */
  detail: z.string(),
  available: z.boolean(),
  /** Why it is not available (and what to do), or null. */
  reason: z.nullable(z.string()),
  inUse: z.boolean(),
});
export type EngineStatus = z.infer<typeof EngineStatusSchema>;

export const InstalledModelStatusSchema = z.object({
  name: z.string(),
  kind: z.enum(['asr', 'vad', 'speaker-segmentation', 'speaker-embedding']),
  description: z.nullable(z.string()),
  /** Bytes on disk. */
  bytes: z.number().check(z.int(), z.nonnegative()),
  /** pinned: matched the published checksum; first-download: trusted and recorded at first download. */
  checksum: z.enum(['pinned', 'first-download']),
  installedAt: z.string(),
});
export type InstalledModelStatus = z.infer<typeof InstalledModelStatusSchema>;

/** One model of the first start's background download, as far as it got. */
export const AutoModelDownloadSchema = z.object({
  name: z.string(),
  kind: z.enum(['asr', 'vad', 'speaker-segmentation', 'speaker-embedding']),
  receivedBytes: z.number().check(z.int(), z.nonnegative()),
  /** null while the size is not known yet. */
  totalBytes: z.nullable(z.number().check(z.int(), z.nonnegative())),
  done: z.boolean(),
});

export const AUTO_MODEL_STATES = ['off', 'pending', 'checking', 'downloading', 'installed', 'offline', 'failed'] as const;

/**
 * The recommended speech and speaker models fetched in the background at first start
 * (PARLEY_AUTO_MODELS): off, not begun yet, checking the models host, downloading (with progress),
 * installed, offline (the host could not be reached), or failed (the download goes on at the next start).
 */
export const AutoModelsStatusSchema = z.object({
  state: z.enum(AUTO_MODEL_STATES),
  /** What happened, for people (the reason it is offline or failed, what it switched to). */
  message: z.nullable(z.string()),
  downloads: z.array(AutoModelDownloadSchema),
});
export type AutoModelsStatus = z.infer<typeof AutoModelsStatusSchema>;

export const StatusResponseSchema = z.object({
  transcription: z.object({
    /** TRANSCRIBE_ENGINE. */
    setting: z.enum(['auto', 'pocketsphinx', 'openai', 'sherpa-onnx']),
    /** The engine recordings are transcribed with now. */
    inUse: z.string(),
    engines: z.array(EngineStatusSchema),
    models: z.array(InstalledModelStatusSchema),
    /** Silero voice activity detection (through sherpa-onnx), used to cut long audio. */
    voiceActivityDetection: z.object({ available: z.boolean(), source: z.nullable(z.enum(['installed', 'bundled'])), reason: z.nullable(z.string()) }),
    /** Transcription jobs waiting and running on this installation. */
    queue: z.object({ queued: z.number().check(z.int(), z.nonnegative()), running: z.number().check(z.int(), z.nonnegative()) }),
    autoModels: AutoModelsStatusSchema,
    /**
     * While recordings are transcribed with the basic offline engine (pocketsphinx): the command
     * that installs the recommended speech model, for better transcripts. Null otherwise.
     */
    betterTranscripts: z.nullable(z.string()),
  }),
  notes: z.object({
    /** NOTES_ENGINE. */
    setting: z.enum(['auto', 'local', 'llm']),
    /** The engine meeting notes are written with now. */
    inUse: z.enum(['local', 'llm']),
    engines: z.array(
      z.object({ name: z.enum(['local', 'llm']), detail: z.string(), available: z.boolean(), reason: z.nullable(z.string()), inUse: z.boolean() }),
    ),
    /** Note-writing jobs waiting and running on this installation. */
    queue: z.object({ queued: z.number().check(z.int(), z.nonnegative()), running: z.number().check(z.int(), z.nonnegative()) }),
  }),
  /** The database's integrity check at start (SQLite quick_check; a read of every table on PostgreSQL). */
  database: z.object({ ok: z.boolean(), reason: z.nullable(z.string()), checkedAt: z.string() }),
  /**
   * For the operator: each named best-effort step (a progress write, a realtime nudge, an email
   * after the thing it announces, an hourly sweep) with the times it failed since the answering
   * process started (0 when never). A failure here failed nothing the person asked for; the server
   * log has each one at warn with `effort` set to its name.
   */
  bestEffortFailures: z.record(z.string(), z.number().check(z.int(), z.nonnegative())),
  /**
   * Domain events' deliveries across the installation: waiting, and failed for good (an operator
   * lists and retries those with `npm run events -- failed | retry <id>`).
   */
  eventDeliveries: z.object({ pending: z.number().check(z.int(), z.nonnegative()), dead: z.number().check(z.int(), z.nonnegative()) }),
  /**
   * For the operator: the answering process (one of several behind a load balancer): its role, its
   * event loop's delay since it began serving (ms: how long a ready request could wait for the loop)
   * and the memory it holds.
   */
  process: z.object({
    role: z.enum(['all', 'web', 'worker']),
    eventLoopDelayMs: z.object({ p50: z.number(), p99: z.number(), max: z.number() }),
    rssBytes: z.number().check(z.int(), z.nonnegative()),
    uptimeSeconds: z.number().check(z.int(), z.nonnegative()),
  }),
});
export type StatusResponse = z.infer<typeof StatusResponseSchema>;

export const statusEndpoints = {
  get: defineEndpoint({
    method: 'GET',
    path: '/api/v1/status',
    response: StatusResponseSchema,
    tag: 'status',
    summary: 'Transcription engines, models and queue',
  }),
};
