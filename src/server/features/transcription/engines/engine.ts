import type { Pcm16k } from '#server/lib/ffmpeg.ts';

export type RecognizedWord = { text: string; startMs: number; endMs: number; confidence: number };

export type RecognizedSegment = {
  startMs: number;
  endMs: number;
  text: string;
  words: RecognizedWord[];
  /** Mean word confidence, 0..1. */
  confidence: number;
};

export type EngineAvailability = { available: true } | { available: false; reason: string };

export type TranscribeOptions = {
  language?: string;
  signal?: AbortSignal;
  /** Called with the fraction of the audio recognised so far, where the engine can tell. */
  onProgress?: (fraction: number) => void;
  /**
   * Custom vocabulary terms to favour (names, products), for engines that can: sherpa-onnx's
   * transducers as hotwords, an OpenAI-compatible service as its prompt. Others ignore them; the
   * corrections pass after recognition serves every engine.
   */
  vocabulary?: readonly string[];
};

/** A speech recogniser: 16 kHz mono PCM in, timed segments with timed words out. */
export type TranscriptionEngine = {
  readonly name: string;
  checkAvailability(): Promise<EngineAvailability>;
  transcribe(pcm: Pcm16k, options?: TranscribeOptions): Promise<RecognizedSegment[]>;
};

export const meanConfidence = (words: RecognizedWord[]): number => (words.length === 0 ? 0 : words.reduce((sum, w) => sum + w.confidence, 0) / words.length);
