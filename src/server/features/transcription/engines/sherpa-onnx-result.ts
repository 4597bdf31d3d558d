import type { OfflineRecognizerResult } from '../models/sherpa-runtime.ts';
import { meanConfidence, type RecognizedSegment, type RecognizedWord } from './engine.ts';

/** A word with no known end (no token durations) lasts at most this long after its last token starts. */
const MAX_TAIL_MS = 600;

/**
 * One sherpa-onnx result for a stretch of speech (a voice-activity segment starting at `startMs`)
 * → a timed segment. Transducer models (parakeet, zipformer) give token start times, TDT models
 * token durations, and log-probabilities: words are rebuilt from sentencepiece tokens (a token
 * beginning with a space starts a word; punctuation joins the word before). Whisper gives no
 * timings: its words are spread over the segment by length. A word whose model gives no
 * probability gets confidence 1, as the OpenAI-compatible engine does.
 */
export function toRecognizedSegment(result: OfflineRecognizerResult, startMs: number, endMs: number): RecognizedSegment | undefined {
  const text = result.text.replace(/\s+/g, ' ').trim();
  if (text === '') return undefined;
  const tokens = result.tokens ?? [];
  const times = result.timestamps ?? [];
  const words = tokens.length > 0 && times.length === tokens.length ? wordsFromTokens(result, startMs, endMs) : spreadWords(text, startMs, endMs);
  if (words.length === 0) return undefined;
  return {
    startMs: words[0]!.startMs,
    endMs: Math.max(words.at(-1)!.endMs, words[0]!.startMs),
    // The model's own text: it keeps the case and punctuation that parakeet and whisper give.
    text,
    words,
    confidence: meanConfidence(words),
  };
}

type Piece = { text: string; startMs: number; lastTokenMs: number; endMs: number | undefined; logProbs: number[] };

function wordsFromTokens(result: OfflineRecognizerResult, offsetMs: number, segmentEndMs: number): RecognizedWord[] {
  const tokens = result.tokens ?? [];
  const times = result.timestamps ?? [];
  const durations = result.durations && result.durations.length === tokens.length ? result.durations : undefined;
  const logProbs = result.ys_log_probs && result.ys_log_probs.length === tokens.length ? result.ys_log_probs : undefined;
  const pieces: Piece[] = [];
  tokens.forEach((raw, i) => {
    const token = raw.replace(/\u2581/g, ' ');
    const at = offsetMs + times[i]! * 1000;
    const end = durations ? at + durations[i]! * 1000 : undefined;
    const startsWord = token.startsWith(' ') || pieces.length === 0;
    const bare = token.trim();
    if (bare === '') return;
    const current = pieces.at(-1);
    if (startsWord && !(current && isPunctuation(bare))) {
      pieces.push({ text: bare, startMs: at, lastTokenMs: at, endMs: end, logProbs: logProbs ? [logProbs[i]!] : [] });
    } else if (current) {
      current.text += bare;
      current.lastTokenMs = at;
      if (end !== undefined) current.endMs = end;
      if (logProbs) current.logProbs.push(logProbs[i]!);
    }
  });
  return pieces.map((piece, i) => {
    const next = pieces[i + 1];
    const limit = next ? next.startMs : segmentEndMs;
    const end = piece.endMs ?? Math.min(limit, piece.lastTokenMs + MAX_TAIL_MS);
    const mean = piece.logProbs.length > 0 ? piece.logProbs.reduce((a, b) => a + b, 0) / piece.logProbs.length : 0;
    return {
      text: piece.text,
      startMs: Math.round(piece.startMs),
      endMs: Math.round(Math.max(piece.startMs, Math.min(end, Math.max(limit, piece.startMs)))),
      confidence: piece.logProbs.length > 0 ? clamp01(Math.exp(mean)) : 1,
    };
  });
}

/** Whisper: no timings, so each word gets a share of the segment proportional to its length. */
function spreadWords(text: string, startMs: number, endMs: number): RecognizedWord[] {
  const parts = text.split(' ').filter(Boolean);
  const total = parts.reduce((sum, w) => sum + w.length, 0) || 1;
  const span = Math.max(0, endMs - startMs);
  let at = startMs;
  return parts.map((word) => {
    const length = (span * word.length) / total;
    const out = { text: word, startMs: Math.round(at), endMs: Math.round(at + length), confidence: 1 };
    at += length;
    return out;
  });
}

const isPunctuation = (token: string) => /^[\p{P}\p{S}]+$/u.test(token);
const clamp01 = (n: number) => Math.max(0, Math.min(1, n));
