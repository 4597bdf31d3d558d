/**
 * How long each stage of a transcription may take before the job is stopped: a floor (a short clip
 * still gets time for a host process to load its model) plus a multiple of the recording's length
 * (a stage's work grows with it). A stuck ffmpeg, engine or speaker host then ends in a failure
 * that says which stage and why, instead of a meeting left processing for ever.
 */
export type LimitedStage = 'decoding' | 'transcribing' | 'identifying speakers';
export type StageLimit = { floorMs: number; perAudioSecondMs: number };
export type StageLimits = Record<LimitedStage, StageLimit>;

/**
 * Decoding runs far faster than real time (ffmpeg decodes an hour of Opus in seconds); recognition
 * on a slow CPU with pocketsphinx nears real time, so three times the audio leaves room for a
 * loaded machine; speaker identification (clustering or sherpa-onnx) is well under real time.
 */
export const DEFAULT_STAGE_LIMITS: StageLimits = {
  decoding: { floorMs: 2 * 60_000, perAudioSecondMs: 200 },
  transcribing: { floorMs: 10 * 60_000, perAudioSecondMs: 3_000 },
  'identifying speakers': { floorMs: 5 * 60_000, perAudioSecondMs: 1_000 },
};

/** A stage that ran past its limit: retrying on the same machine would only wait as long again. */
export class StageTimeoutError extends Error {
  /** `part`: the limit was of one window of a longer recording (recognised a window at a time). */
  constructor(stage: LimitedStage, limitMs: number, audioMs: number, part = false) {
    const of = part ? `${spoken(audioMs)} of the recording` : `a recording of ${spoken(audioMs)}`;
    super(`Transcription stopped: ${stage} took longer than ${spoken(limitMs)}, its limit for ${of}.`);
    this.name = 'StageTimeoutError';
  }
}

export const stageLimitMs = (limit: StageLimit, audioMs: number): number => Math.max(limit.floorMs, Math.round((audioMs / 1000) * limit.perAudioSecondMs));

/**
 * Runs one stage under its limit. The work is given a signal that aborts with the job or at the
 * limit (ffmpeg and host processes are killed on it), and the stage ends at the limit even if
 * the work never looks at its signal.
 */
export async function withinLimit<T>(
  stage: LimitedStage,
  limit: StageLimit,
  audioMs: number,
  jobSignal: AbortSignal,
  work: (signal: AbortSignal) => Promise<T>,
  options: { part?: boolean } = {},
): Promise<T> {
  const limitMs = stageLimitMs(limit, audioMs);
  // One controller aborted by the job or the deadline, and let go of by the job's signal when the
  // stage ends. Not AbortSignal.any: on Node 20 the job's signal keeps every signal made from it,
  // with whatever their listeners hold (a window's PCM, run a window at a time), until the job ends.
  const stageAbort = new AbortController();
  const onJobAbort = () => stageAbort.abort(jobSignal.reason);
  if (jobSignal.aborted) stageAbort.abort(jobSignal.reason);
  else jobSignal.addEventListener('abort', onJobAbort, { once: true });
  const timer = setTimeout(() => stageAbort.abort(new StageTimeoutError(stage, limitMs, audioMs, options.part)), limitMs);
  const signal = stageAbort.signal;
  try {
    return await new Promise<T>((resolve, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      if (signal.aborted) return reject(signal.reason);
      work(signal).then(resolve, (error: unknown) => reject(signal.aborted ? signal.reason : error));
    });
  } finally {
    clearTimeout(timer);
    jobSignal.removeEventListener('abort', onJobAbort);
  }
}

/** "45 s", "12 min", "2 h 30 min": how long, for a person. */
function spoken(ms: number): string {
  if (ms < 60_000) return `${Math.max(1, Math.round(ms / 1000))} s`;
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  return minutes % 60 === 0 ? `${minutes / 60} h` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
