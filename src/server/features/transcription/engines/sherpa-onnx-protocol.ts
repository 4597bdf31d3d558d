import type { OfflineRecognizerConfig } from '../models/sherpa-runtime.ts';
import type { RecognizedSegment } from './engine.ts';

/**
 * Messages between the server and its sherpa-onnx host process (child_process IPC with advanced
 * serialization, so PCM travels as bytes). The model is loaded in a child because sherpa-onnx ends
 * the whole process, not with an exception, when a model file is of the wrong kind.
 */
export type HostRequest =
  | { type: 'load'; recognizer: OfflineRecognizerConfig; modelsDir: string; maxSpeechMs: number }
  | { type: 'transcribe'; id: number; pcm: Uint8Array }
  | { type: 'cancel'; id: number };

export type HostReply =
  | { type: 'loaded'; vad: 'installed' | 'bundled' }
  | { type: 'load-failed'; message: string }
  | { type: 'progress'; id: number; fraction: number }
  | { type: 'result'; id: number; segments: RecognizedSegment[] }
  | { type: 'failed'; id: number; message: string; cancelled: boolean };
