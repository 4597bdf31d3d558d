import type { TranscriptionEngine } from '#server/features/transcription/engines/engine.ts';
import type { SpeakerIdentifier } from '#server/features/transcription/speakers/identify-speakers.ts';
import { BUILT_IN_VOICE_KEY } from '#server/features/transcription/speakers/voice-embedding.ts';
import { PCM_SAMPLE_RATE } from '#server/lib/ffmpeg.ts';

/**
 * A speech engine for tests that are about meetings, not about recognition: it answers at once with
 * one line per started 10 seconds of the decoded audio ("Line 1 of the recording.", …), timed on the
 * audio's own clock. Real decoding (ffmpeg) still runs; pocketsphinx and speaker clustering do not.
 */
export function createFakeSpeechEngine(): TranscriptionEngine {
  return {
    name: 'fake',
    checkAvailability: async () => ({ available: true }),
    transcribe: async (pcm, options) => {
      const durationMs = Math.round((pcm.length / 2 / PCM_SAMPLE_RATE) * 1000);
      const lines = Math.ceil(durationMs / 10_000);
      options?.onProgress?.(1);
      return Array.from({ length: lines }, (_, i) => {
        const startMs = i * 10_000;
        const endMs = Math.min(durationMs, startMs + 10_000);
        const text = `Line ${i + 1} of the recording.`;
        return { startMs, endMs, text, confidence: 0.9, words: [{ text, startMs, endMs, confidence: 0.9 }] };
      });
    },
  };
}

/** Every line by one speaker, without the clustering host process. */
export function createFakeSpeakerIdentifier(): SpeakerIdentifier {
  return {
    identify: async (_pcm, segments) => ({ speakers: [{ label: 'Speaker 1' }], segments: segments.map((s) => ({ ...s, speaker: 0 })) }),
    windowed: async () => ({
      hear: async () => undefined,
      identify: async (segments) => ({ speakers: [{ label: 'Speaker 1' }], segments: segments.map((s) => ({ ...s, speaker: 0 })) }),
    }),
    status: async () => ({ method: 'clustering', voiceActivity: 'energy', reasons: [] }),
    voicePath: async () => ({ kind: 'built-in', key: BUILT_IN_VOICE_KEY, reason: 'a test without speaker identification' }),
    embedVoices: async (_pcm, speakers) => ({
      path: { kind: 'built-in', key: BUILT_IN_VOICE_KEY, reason: 'a test without speaker identification' },
      voices: speakers.map(() => null),
    }),
    close: async () => undefined,
  };
}

/** An engine that never finishes (until aborted) and says when it starts: a job to kill mid-run. */
export function createStallingSpeechEngine(onStart: () => void): TranscriptionEngine {
  return {
    name: 'stalling',
    checkAvailability: async () => ({ available: true }),
    transcribe: (_pcm, options) =>
      new Promise((_, reject) => {
        onStart();
        options?.signal?.addEventListener('abort', () => reject(options.signal?.reason), { once: true });
      }),
  };
}
