import type { OfflineRecognizerConfig } from '../models/sherpa-runtime.ts';
import type { RecognizedSegment } from './engine.ts';

/**
 * What the server and its sherpa-onnx host process exchange (over lib/child-host): the model is
 * loaded in a child because sherpa-onnx ends the whole process, not with an exception, when a
 * model file is of the wrong kind.
 */
export type RecognizerHostConfig = {
  recognizer: OfflineRecognizerConfig;
  modelsDir: string;
  maxSpeechMs: number;
  /**
   * The model takes hotwords (a transducer decoded with modified_beam_search). `bpe`: its own
   * bpe.vocab is configured; otherwise the host makes one from tokens.txt.
   */
  hotwords?: { bpe: boolean };
};
/** What a run is given beside the PCM (RunOptions.context): the meeting's custom vocabulary. */
export type RecognizerRunContext = { vocabulary?: readonly string[] };
export type RecognizerHostLoaded = { vad: 'installed' | 'bundled' };
/** 16 kHz mono s16le PCM. */
export type RecognizerHostInput = Uint8Array;
export type RecognizerHostOutput = RecognizedSegment[];
