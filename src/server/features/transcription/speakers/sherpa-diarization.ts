import path from 'node:path';
import { createHostSlot, hostEntry, startHost, type Host } from '#server/lib/child-host/host-client.ts';
import type { Pcm16k } from '#server/lib/ffmpeg.ts';
import { SUGGESTED_SPEAKER_MODELS } from '../models/catalog.ts';
import { createLoadVerdict } from '../models/load-verdict.ts';
import { findDamage, installKey, preferredInstalledModel, type InstalledModel } from '../models/model-store.ts';
import type { OfflineSpeakerDiarizationConfig, SpeakerDiarizationSegment } from '../models/sherpa-runtime.ts';
import type { Turn } from './diarization-error-rate.ts';

/**
 * Speaker diarization with sherpa-onnx (pyannote segmentation 3.0 finds who speaks when within
 * 10 s chunks, a speaker-embedding model describes each voice, clustering joins them across the
 * recording), once both models are fetched with `npm run models -- fetch <name>`. The models run
 * in a child process (sherpa-diarization-host.ts), like the sherpa-onnx engine's: a model that
 * cannot load makes this unavailable with the reason instead of ending the server.
 */

export type Availability = { available: true } | { available: false; reason: string };

export type SherpaDiarizerOptions = {
  /** $DATA_DIR/models. */
  modelsDir: string;
  numThreads?: number;
  /**
   * Cosine-distance threshold at which clustering stops joining voices: lower finds more
   * speakers. 0.5 is sherpa-onnx's own example value for these models.
   */
  threshold?: number;
  /** The host process (and the models' memory) is let go after this long without work (default 10 min). */
  idleMs?: number;
  /** How long loading the models may take (default 1 min). */
  loadTimeoutMs?: number;
};

export type SherpaDiarizer = {
  /** The installed models it would use (whole and undamaged or not), if both kinds are there. */
  models(): { segmentation: InstalledModel; embedding: InstalledModel } | undefined;
  checkAvailability(): Promise<Availability>;
  /** Who speaks when; speakers are numbered by the model (not in order of appearance). */
  diarize(pcm: Pcm16k, options?: { signal?: AbortSignal }): Promise<Turn[]>;
  /** Stops the host process. */
  close(): Promise<void>;
};

const SUGGESTED = SUGGESTED_SPEAKER_MODELS;

/** The segmentation model's full-precision file (the catalog keeps an int8 one beside it). */
function segmentationFile(model: InstalledModel): string {
  const files = model.manifest.files.map((f) => f.path);
  return path.join(model.dir, files.find((f) => f === 'model.onnx') ?? files.find((f) => f.endsWith('.onnx')) ?? files[0]!);
}

export function diarizationConfig(
  models: { segmentation: InstalledModel; embedding: InstalledModel },
  settings: { numThreads: number; threshold: number },
): OfflineSpeakerDiarizationConfig {
  return {
    segmentation: { pyannote: { model: segmentationFile(models.segmentation) }, numThreads: settings.numThreads, debug: 0, provider: 'cpu' },
    embedding: { model: path.join(models.embedding.dir, models.embedding.manifest.files[0]!.path), numThreads: settings.numThreads, debug: 0, provider: 'cpu' },
    // numClusters −1: the number of speakers is not known, the threshold decides.
    clustering: { numClusters: -1, threshold: settings.threshold },
    // Turns under 0.3 s are dropped, and pauses under 0.5 s inside one speaker's turn are bridged.
    minDurationOn: 0.3,
    minDurationOff: 0.5,
  };
}

export function createSherpaDiarizer(options: SherpaDiarizerOptions): SherpaDiarizer {
  const settings = {
    numThreads: options.numThreads ?? 1,
    threshold: options.threshold ?? 0.5,
    idleMs: options.idleMs ?? 10 * 60_000,
    loadTimeoutMs: options.loadTimeoutMs ?? 60_000,
  };
  const slot = createHostSlot<DiarizationHost>();
  const verdict = createLoadVerdict<Availability>();

  const models = () => {
    const segmentation = preferredInstalledModel(options.modelsDir, 'speaker-segmentation');
    const embedding = preferredInstalledModel(options.modelsDir, 'speaker-embedding');
    return segmentation && embedding ? { segmentation, embedding } : undefined;
  };
  const keyOf = (m: { segmentation: InstalledModel; embedding: InstalledModel }) => `${installKey(m.segmentation)}+${installKey(m.embedding)}`;

  const hostFor = (m: { segmentation: InstalledModel; embedding: InstalledModel }): Promise<DiarizationHost> =>
    slot.get(keyOf(m), () =>
      startHost<OfflineSpeakerDiarizationConfig, { sampleRate: number }, Uint8Array, SpeakerDiarizationSegment[]>({
        entry: hostEntry(import.meta.url, 'sherpa-diarization-host'),
        config: diarizationConfig(m, settings),
        // process() cannot be interrupted: a cancelled job ends the host, the next one starts afresh.
        abort: 'kill',
        idleMs: settings.idleMs,
        loadTimeoutMs: settings.loadTimeoutMs,
        words: {
          stopped: 'the diarization process stopped',
          failed: 'sherpa-onnx could not tell the speakers apart',
          cancelled: 'Speaker identification was cancelled.',
        },
      }),
    );

  const unavailable = (reason: string): Availability => ({ available: false, reason: `sherpa-onnx diarization: ${reason}` });

  const checkAvailability = async (): Promise<Availability> => {
    const segmentation = preferredInstalledModel(options.modelsDir, 'speaker-segmentation');
    const embedding = preferredInstalledModel(options.modelsDir, 'speaker-embedding');
    const missing = (['speaker-segmentation', 'speaker-embedding'] as const).filter((kind) => !(kind === 'speaker-segmentation' ? segmentation : embedding));
    if (!segmentation || !embedding) {
      const commands = missing.map((kind) => `"npm run models -- fetch ${SUGGESTED[kind]}"`).join(' and ');
      return unavailable(`no ${missing.map((k) => k.replace('-', ' ')).join(' or ')} model installed — run ${commands}`);
    }
    for (const model of [segmentation, embedding]) {
      const damage = findDamage(model);
      if (damage)
        return unavailable(`model ${model.manifest.name} is damaged (${damage}) — run "npm run models -- remove ${model.manifest.name}" and fetch it again`);
    }
    const both = { segmentation, embedding };
    return verdict.check(keyOf(both), async () => {
      try {
        await hostFor(both);
        return { available: true };
      } catch (error) {
        return unavailable(
          `models ${segmentation.manifest.name} and ${embedding.manifest.name} could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    });
  };

  return {
    models,
    checkAvailability,
    async diarize(pcm, diarizeOptions = {}) {
      diarizeOptions.signal?.throwIfAborted();
      const availability = await checkAvailability();
      if (!availability.available) throw new Error(availability.reason);
      const m = models()!;
      let segments: SpeakerDiarizationSegment[];
      try {
        segments = await (await hostFor(m)).run(pcm, { signal: diarizeOptions.signal });
      } catch (error) {
        // Models that load but fail on audio (an embedding model of the wrong kind ends the host
        // only here) are set aside like models that do not load, so the next jobs do not retry them.
        if (!diarizeOptions.signal?.aborted) {
          const reason = error instanceof Error ? error.message : String(error);
          verdict.remember(keyOf(m), unavailable(`models ${m.segmentation.manifest.name} and ${m.embedding.manifest.name} failed on a recording: ${reason}`));
        }
        throw error;
      }
      return segments.map((s) => ({ startMs: Math.round(s.start * 1000), endMs: Math.round(s.end * 1000), speaker: String(s.speaker) }));
    },
    close: () => slot.close(),
  };
}

type DiarizationHost = Host<{ sampleRate: number }, Uint8Array, SpeakerDiarizationSegment[]>;
