import { createRequire } from 'node:module';

/**
 * Typed access to `sherpa-onnx-node` (a CommonJS package that ships no type declarations): only the
 * parts Parley uses, as its own JSDoc in node_modules/sherpa-onnx-node/types.js describes them.
 * The native addon comes from the platform package (sherpa-onnx-linux-x64 …) with its own
 * onnxruntime, so nothing is downloaded at install or run time.
 */

export type Waveform = { samples: Float32Array; sampleRate: number };

export type SileroVadConfig = {
  sileroVad: { model: string; threshold?: number; minSilenceDuration?: number; minSpeechDuration?: number; windowSize?: number; maxSpeechDuration?: number };
  sampleRate?: number;
  numThreads?: number;
  provider?: string;
  debug?: boolean | number;
};

export type SpeechSegment = { start: number; samples: Float32Array };

export type SherpaVad = {
  acceptWaveform(samples: Float32Array): void;
  isEmpty(): boolean;
  isDetected(): boolean;
  front(enableExternalBuffer?: boolean): SpeechSegment;
  pop(): void;
  flush(): void;
  reset(): void;
};

export type OfflineModelConfig = {
  transducer?: { encoder: string; decoder: string; joiner: string };
  whisper?: { encoder: string; decoder: string; language?: string; task?: string; tailPaddings?: number };
  senseVoice?: { model: string; language?: string; useInverseTextNormalization?: number };
  tokens: string;
  numThreads?: number;
  provider?: string;
  debug?: boolean | number;
  modelType?: string;
  /** With bpeVocab, hotwords are given as words ('bpe' for English models). */
  modelingUnit?: string;
  bpeVocab?: string;
};

export type OfflineRecognizerConfig = {
  featConfig?: { sampleRate?: number; featureDim?: number };
  modelConfig: OfflineModelConfig;
  decodingMethod?: string;
  /** modified_beam_search's beam. */
  maxActivePaths?: number;
  /** How much a hotword's tokens are boosted (contextual biasing). */
  hotwordsScore?: number;
};

/** One decoded stream, as `OfflineRecognitionResult::AsJsonString()` gives it (fields vary by model). */
export type OfflineRecognizerResult = {
  text: string;
  tokens?: string[];
  /** Start of each token in seconds (transducer and CTC models; empty for whisper). */
  timestamps?: number[];
  /** Duration of each token in seconds (TDT models). */
  durations?: number[];
  /** Log-probability of each token (transducer models). */
  ys_log_probs?: number[];
  lang?: string;
};

export type SherpaOfflineStream = { acceptWaveform(wave: Waveform): void };

export type SherpaOfflineRecognizer = {
  /** `hotwords`: contextual biasing for this stream (transducers decoded with modified_beam_search). */
  createStream(hotwords?: string): SherpaOfflineStream;
  decodeAsync(stream: SherpaOfflineStream): Promise<OfflineRecognizerResult>;
};

export type OfflineSpeakerDiarizationConfig = {
  segmentation: { pyannote: { model: string }; numThreads?: number; debug?: boolean | number; provider?: string };
  embedding: { model: string; numThreads?: number; debug?: boolean | number; provider?: string };
  clustering: { numClusters?: number; threshold?: number };
  minDurationOn?: number;
  minDurationOff?: number;
};

export type SpeakerDiarizationSegment = { start: number; end: number; speaker: number };

export type SherpaOfflineSpeakerDiarization = {
  readonly sampleRate: number;
  process(samples: Float32Array): SpeakerDiarizationSegment[];
  setConfig(config: { clustering: { numClusters?: number; threshold?: number } }): void;
};

export type SherpaOnlineStream = { acceptWaveform(wave: Waveform): void; inputFinished(): void };

export type SherpaSpeakerEmbeddingExtractor = {
  readonly dim: number;
  createStream(): SherpaOnlineStream;
  isReady(stream: SherpaOnlineStream): boolean;
  compute(stream: SherpaOnlineStream, enableExternalBuffer?: boolean): Float32Array;
};

export type SherpaOnnx = {
  version: string;
  onnxruntimeVersion: string;
  Vad: new (config: SileroVadConfig, bufferSizeInSeconds: number) => SherpaVad;
  OfflineRecognizer: { createAsync(config: OfflineRecognizerConfig): Promise<SherpaOfflineRecognizer> };
  OfflineSpeakerDiarization: new (config: OfflineSpeakerDiarizationConfig) => SherpaOfflineSpeakerDiarization;
  SpeakerEmbeddingExtractor: new (config: {
    model: string;
    numThreads?: number;
    debug?: boolean | number;
    provider?: string;
  }) => SherpaSpeakerEmbeddingExtractor;
};

export class SherpaUnavailableError extends Error {}

let loaded: SherpaOnnx | undefined;

/**
 * Loads the native addon once. Throws SherpaUnavailableError with a readable reason when this
 * platform has no prebuilt addon (the optional platform package was not installed).
 *
 * Caution for callers: sherpa's synchronous constructors abort the process on a model file they
 * cannot parse, and every constructor exits the process on a valid ONNX file of the wrong kind.
 * Only hand them files whose checksum was verified (see silero-vad.ts), or load models in a child
 * process (see engines/sherpa-onnx.ts).
 */
export function loadSherpaOnnx(): SherpaOnnx {
  if (loaded) return loaded;
  try {
    loaded = createRequire(import.meta.url)('sherpa-onnx-node') as SherpaOnnx;
    return loaded;
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new SherpaUnavailableError(`sherpa-onnx-node could not be loaded on ${process.platform}-${process.arch}: ${detail}`);
  }
}

/** 16-bit little-endian PCM → float samples in [-1, 1], as sherpa expects. */
export function pcm16ToFloat32(pcm: Uint8Array): Float32Array {
  const count = Math.floor(pcm.byteLength / 2);
  const view = new DataView(pcm.buffer, pcm.byteOffset, count * 2);
  const samples = new Float32Array(count);
  for (let i = 0; i < count; i += 1) samples[i] = view.getInt16(i * 2, true) / 32768;
  return samples;
}
