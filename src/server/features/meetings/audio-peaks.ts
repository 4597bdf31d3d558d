import { decodePcmWindows, PCM_SAMPLE_RATE } from '#server/lib/ffmpeg.ts';

/**
 * The waveform of a recording, worked out on the server so the player can draw it without
 * downloading the whole file (the browser streams the audio with Range requests instead).
 * ffmpeg decodes in one-minute windows, so memory stays small whatever the length; each 50 ms
 * becomes its loudest sample, and the list is then folded to at most MAX_PEAKS values (a
 * waveform is never drawn wider than that). The decoded length is the true duration, which a
 * browser's WebM recording does not state in its header.
 */
export type AudioPeaks = { peaks: number[]; durationSeconds: number };

export const MAX_PEAKS = 3000;
const BUCKET_SAMPLES = PCM_SAMPLE_RATE / 20;
const WINDOW_MS = 60_000;

export async function computeAudioPeaks(filePath: string, options: { ffmpegPath?: string; signal?: AbortSignal } = {}): Promise<AudioPeaks> {
  const buckets: number[] = [];
  let samples = 0;
  let loudest = 0;
  let inBucket = 0;
  for await (const { pcm } of decodePcmWindows(filePath, { ...options, windowMs: WINDOW_MS, overlapMs: 0 })) {
    for (let offset = 0; offset + 1 < pcm.length; offset += 2) {
      const value = Math.abs(pcm.readInt16LE(offset));
      if (value > loudest) loudest = value;
      inBucket += 1;
      if (inBucket === BUCKET_SAMPLES) {
        buckets.push(loudest);
        loudest = 0;
        inBucket = 0;
      }
    }
    samples += Math.floor(pcm.length / 2);
  }
  if (inBucket > 0) buckets.push(loudest);
  const fold = Math.max(1, Math.ceil(buckets.length / MAX_PEAKS));
  const peaks: number[] = [];
  for (let i = 0; i < buckets.length; i += fold) {
    // Three decimals are plenty for a drawing and keep the answer small.
    peaks.push(Math.round((Math.max(...buckets.slice(i, i + fold)) / 32768) * 1000) / 1000);
  }
  return { peaks, durationSeconds: samples / PCM_SAMPLE_RATE };
}

/**
 * Remembers the last few recordings' waveforms (keyed by blob key and size: a stored recording
 * never changes) and shares one decode between requests arriving together. At most `concurrency`
 * decodes run at once (each is an ffmpeg process): opening many meetings queues them instead.
 */
export function createPeaksCache(compute: (key: string) => Promise<AudioPeaks>, { capacity = 32, concurrency = 2 } = {}) {
  const entries = new Map<string, Promise<AudioPeaks>>();
  let running = 0;
  const waiting: (() => void)[] = [];
  const limited = async (key: string): Promise<AudioPeaks> => {
    if (running >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
    try {
      return await compute(key);
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  };
  return (cacheKey: string, key: string): Promise<AudioPeaks> => {
    const known = entries.get(cacheKey);
    if (known) {
      // Most recently used last, so the oldest is evicted first.
      entries.delete(cacheKey);
      entries.set(cacheKey, known);
      return known;
    }
    const pending = limited(key);
    entries.set(cacheKey, pending);
    // A failure is not remembered: the next request tries again.
    pending.catch(() => entries.delete(cacheKey));
    while (entries.size > capacity) entries.delete(entries.keys().next().value!);
    return pending;
  };
}
