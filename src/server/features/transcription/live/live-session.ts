import { LIVE_SAMPLE_RATE, type LiveLine } from '#shared/contracts/live.ts';
import { startStreamingRecognizer, type StreamingRecognizer } from './streaming-recognizer.ts';

const BYTES_PER_MS = (LIVE_SAMPLE_RATE * 2) / 1000;
/** Audio not yet taken by a recogniser beyond this (30 s) means it cannot keep up. */
export const MAX_BACKLOG_BYTES = LIVE_SAMPLE_RATE * 2 * 30;
/**
 * Silence that makes pocketsphinx end the utterance in progress (it waits for about a second of
 * quiet), written when the person pauses so their last sentence appears without waiting for resume.
 */
const FLUSH_MS = 1200;

export type LiveSession = {
  /** Interleaved 16-bit PCM, one channel per recogniser; length a whole number of sample frames. */
  write: (pcm: Buffer) => void;
  /** The person paused: finish the utterance in progress. Audio written afterwards resumes. */
  pause: () => void;
  kill: () => void;
};

export type LiveSessionInput = {
  /** One per channel, in channel order: the name each channel's lines carry. */
  speakers: string[];
  /** Recording time already behind this session (a reconnection continues the same clock). */
  offsetMs: number;
  onLine: (line: LiveLine) => void;
  /** The session cannot go on (a recogniser fell too far behind or died); it has been killed. */
  onFailure: (reason: 'overloaded' | 'crashed') => void;
};

/**
 * One recording's live transcript: one streaming recogniser per capture source (channel), each
 * fed its own channel of the interleaved audio, their lines named after the source and timed on
 * the recording's clock — the silence written at a pause is taken out again.
 */
export async function startLiveSession(input: LiveSessionInput): Promise<LiveSession> {
  const channels = input.speakers.length;
  const clock = createRecordingClock(input.offsetMs);
  const recognizers: StreamingRecognizer[] = [];
  let ended = false;
  const kill = () => {
    ended = true;
    for (const recognizer of recognizers) recognizer.kill();
  };
  const fail = (reason: 'overloaded' | 'crashed') => {
    if (ended) return;
    kill();
    input.onFailure(reason);
  };
  try {
    for (const [channel, speaker] of input.speakers.entries()) {
      const recognizer = await startStreamingRecognizer((segment) => {
        if (ended) return;
        input.onLine({ startMs: clock.toRecordingMs(segment.startMs), endMs: clock.toRecordingMs(segment.endMs), text: segment.text, speaker });
      });
      recognizers[channel] = recognizer;
      void recognizer.exited.then(() => fail('crashed'));
    }
  } catch (error) {
    kill();
    throw error;
  }

  let paused = false;
  const writeAll = (buffers: Buffer[]) => {
    if (ended) return;
    buffers.forEach((pcm, channel) => recognizers[channel]!.write(pcm));
    if (recognizers.some((r) => r.backlogBytes() > MAX_BACKLOG_BYTES)) fail('overloaded');
  };
  return {
    write: (pcm) => {
      paused = false;
      writeAll(deinterleave(pcm, channels));
      clock.advance(pcm.length / 2 / channels / (LIVE_SAMPLE_RATE / 1000));
    },
    pause: () => {
      if (paused || ended) return;
      paused = true;
      clock.insertSilence(FLUSH_MS);
      writeAll(Array.from({ length: channels }, () => Buffer.alloc(FLUSH_MS * BYTES_PER_MS)));
    },
    kill,
  };
}

/**
 * Maps a recogniser's time (everything written to it) to recording time (pauses excluded): the
 * session's offset plus what was written, less the flush silences inserted before that point.
 */
export function createRecordingClock(offsetMs: number) {
  let writtenMs = 0;
  const inserted: { atMs: number; durationMs: number }[] = [];
  return {
    advance: (ms: number) => {
      writtenMs += ms;
    },
    insertSilence: (durationMs: number) => {
      inserted.push({ atMs: writtenMs, durationMs });
      writtenMs += durationMs;
    },
    toRecordingMs: (recognizerMs: number): number => {
      let shift = 0;
      for (const { atMs, durationMs } of inserted) {
        if (recognizerMs <= atMs) break;
        shift += Math.min(durationMs, recognizerMs - atMs);
      }
      return Math.round(offsetMs + recognizerMs - shift);
    },
  };
}

/** Interleaved 16-bit samples (L R L R …) split into one buffer per channel. */
export function deinterleave(pcm: Buffer, channels: number): Buffer[] {
  if (channels === 1) return [pcm];
  const frames = pcm.length / 2 / channels;
  const out = Array.from({ length: channels }, () => Buffer.allocUnsafe(frames * 2));
  for (let frame = 0; frame < frames; frame++) {
    for (let channel = 0; channel < channels; channel++) out[channel]!.writeInt16LE(pcm.readInt16LE((frame * channels + channel) * 2), frame * 2);
  }
  return out;
}
