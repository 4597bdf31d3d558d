import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHostSlot, hostEntry, startHost, type Host } from '#server/lib/child-host/host-client.ts';
import { SUGGESTED_ASR_MODEL } from '../models/catalog.ts';
import { createLoadVerdict } from '../models/load-verdict.ts';
import { findDamage, installKey, preferredInstalledModel, readInstalledModel, type InstalledModel } from '../models/model-store.ts';
import type { OfflineRecognizerConfig } from '../models/sherpa-runtime.ts';
import type { EngineAvailability, RecognizedSegment, TranscribeOptions, TranscriptionEngine } from './engine.ts';
import type { RecognizerHostConfig, RecognizerHostInput, RecognizerHostLoaded, RecognizerHostOutput, RecognizerRunContext } from './sherpa-onnx-protocol.ts';

export type SherpaOnnxEngineOptions = {
  /** $DATA_DIR/models. */
  modelsDir: string;
  /** Use this installed ASR model (TRANSCRIBE_SHERPA_MODEL); otherwise the catalog's most preferred one installed. */
  model?: string;
  numThreads?: number;
  /** The host process (and the model's memory) is let go after this long without work (default 10 min). */
  idleMs?: number;
  /** How long loading a model may take (default 3 min: the 0.6B models are 650 MB). */
  loadTimeoutMs?: number;
};

export type SherpaOnnxEngine = TranscriptionEngine & {
  /** The installed ASR model the engine would use, if any. */
  selectedModel(): InstalledModel | undefined;
  /** Stops the host process. */
  close(): Promise<void>;
};

/** Speech is recognised in stretches of at most this (whisper models take under 30 s). */
const MAX_SPEECH_MS = 20_000;

/**
 * The quality engine: a sherpa-onnx speech model fetched with `npm run models -- fetch <name>`,
 * run in a child process (see sherpa-onnx-host.ts) that cuts the audio at pauses with Silero VAD
 * and recognises each stretch. The server's event loop never waits on the model, a model that
 * cannot load makes the engine unavailable with the reason, and a crash of the host fails only
 * the job at hand (which the job runner retries).
 */
export function createSherpaOnnxEngine(options: SherpaOnnxEngineOptions): SherpaOnnxEngine {
  const numThreads = options.numThreads ?? Math.max(1, Math.min(4, os.availableParallelism() - 1));
  const idleMs = options.idleMs ?? 10 * 60_000;
  const loadTimeoutMs = options.loadTimeoutMs ?? 3 * 60_000;
  const verdict = createLoadVerdict<EngineAvailability>();
  const slot = createHostSlot<RecognizerHost>();

  const selectedModel = (): InstalledModel | undefined => {
    if (options.model) return readInstalledModel(options.modelsDir, options.model);
    return preferredInstalledModel(options.modelsDir, 'asr', (m) => m.manifest.asr !== undefined);
  };

  /** A host with `model` loaded: the running one, or a new one. Concurrent callers share the start. */
  const hostFor = (model: InstalledModel): Promise<RecognizerHost> =>
    slot.get(installKey(model), () =>
      startHost<RecognizerHostConfig, RecognizerHostLoaded, RecognizerHostInput, RecognizerHostOutput>({
        entry: hostEntry(import.meta.url, 'sherpa-onnx-host'),
        config: { recognizer: recognizerConfig(model, numThreads), modelsDir: options.modelsDir, maxSpeechMs: MAX_SPEECH_MS, hotwords: hotwordsKind(model) },
        // The host checks between stretches of speech and answers "cancelled".
        abort: 'message',
        idleMs,
        loadTimeoutMs,
        words: { stopped: 'sherpa-onnx stopped while transcribing', failed: 'sherpa-onnx could not transcribe', cancelled: 'The transcription was cancelled.' },
      }),
    );

  const unavailable = (reason: string): EngineAvailability => ({ available: false, reason: `sherpa-onnx: ${reason}` });

  return {
    name: 'sherpa-onnx',
    selectedModel,
    async checkAvailability(): Promise<EngineAvailability> {
      const model = selectedModel();
      if (!model) {
        const wanted = options.model ?? SUGGESTED_ASR_MODEL;
        return unavailable(
          options.model
            ? `model ${options.model} (TRANSCRIBE_SHERPA_MODEL) is not installed — run "npm run models -- fetch ${wanted}"`
            : `no speech model installed — run "npm run models -- fetch ${wanted}"`,
        );
      }
      const name = model.manifest.name;
      if (!model.manifest.asr) return unavailable(`${name} is not a speech recognition model`);
      const damage = findDamage(model);
      if (damage) return unavailable(`model ${name} is damaged (${damage}) — run "npm run models -- remove ${name}" and fetch it again`);
      return verdict.check(installKey(model), async () => {
        try {
          await hostFor(model);
          return { available: true };
        } catch (error) {
          return unavailable(`model ${name} could not be loaded: ${error instanceof Error ? error.message : String(error)}`);
        }
      });
    },
    async transcribe(pcm, transcribeOptions: TranscribeOptions = {}): Promise<RecognizedSegment[]> {
      const model = selectedModel();
      if (!model?.manifest.asr) throw new Error('sherpa-onnx: no speech model installed');
      transcribeOptions.signal?.throwIfAborted();
      const running = await hostFor(model);
      const context: RecognizerRunContext = { vocabulary: transcribeOptions.vocabulary ?? [] };
      return running.run(pcm, { signal: transcribeOptions.signal, onProgress: transcribeOptions.onProgress, context });
    },
    close: () => slot.close(),
  };
}

/** The recogniser configuration sherpa-onnx-node takes for an installed model's files. */
export function recognizerConfig(model: InstalledModel, numThreads: number): OfflineRecognizerConfig {
  const loader = model.manifest.asr;
  if (!loader) throw new Error(`${model.manifest.name} is not a speech recognition model`);
  const file = (name: string) => path.join(model.dir, name);
  const common = { tokens: file(loader.tokens), numThreads, provider: 'cpu', debug: 0 };
  switch (loader.type) {
    case 'nemo_transducer':
    case 'transducer': {
      const bpeVocab = bpeVocabOf(model);
      return {
        featConfig: { sampleRate: 16_000, featureDim: 80 },
        modelConfig: {
          transducer: { encoder: file(loader.encoder), decoder: file(loader.decoder), joiner: file(loader.joiner) },
          ...common,
          modelType: loader.type,
          ...(bpeVocab ? { modelingUnit: 'bpe', bpeVocab } : {}),
        },
        // Hotwords (the custom vocabulary) bias a beam search only; a narrow beam keeps it near greedy's speed.
        decodingMethod: 'modified_beam_search',
        maxActivePaths: 4,
        hotwordsScore: 2,
      };
    }
    case 'whisper':
      return {
        featConfig: { sampleRate: 16_000, featureDim: 80 },
        modelConfig: {
          whisper: { encoder: file(loader.encoder), decoder: file(loader.decoder), language: loader.language ?? '', task: 'transcribe', tailPaddings: -1 },
          ...common,
        },
      };
    case 'sense_voice':
      return {
        featConfig: { sampleRate: 16_000, featureDim: 80 },
        modelConfig: { senseVoice: { model: file(loader.model), language: 'auto', useInverseTextNormalization: 1 }, ...common },
      };
  }
}

type RecognizerHost = Host<RecognizerHostLoaded, RecognizerHostInput, RecognizerHostOutput>;

/** The model's BPE vocabulary file, when it ships one (sherpa-onnx then encodes hotwords from words). */
function bpeVocabOf(model: InstalledModel): string | undefined {
  const file = path.join(model.dir, 'bpe.vocab');
  return fs.existsSync(file) ? file : undefined;
}

/** How the model takes hotwords: only transducers do (whisper and SenseVoice get the corrections pass alone). */
function hotwordsKind(model: InstalledModel): RecognizerHostConfig['hotwords'] {
  const type = model.manifest.asr?.type;
  if (type !== 'transducer' && type !== 'nemo_transducer') return undefined;
  return { bpe: bpeVocabOf(model) !== undefined };
}
