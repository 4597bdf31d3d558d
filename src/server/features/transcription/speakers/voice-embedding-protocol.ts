/**
 * What the server and a host that describes voices exchange (over lib/child-host): each speaker's
 * speech cut out of the recording and laid end to end (at most MAX_VOICE_SPEECH_MS of it), with
 * where each speaker's part lies; out, per speaker, their voice's embedding, or null where they
 * spoke too little to describe. The audio is let go with the answer; only the numbers are kept.
 */
export type VoiceTurn = { startMs: number; endMs: number };
export type VoiceEmbeddingInput = { voices: Uint8Array; speakers: VoiceTurn[][] };
export type VoiceEmbeddingOutput = (Float32Array | null)[];
/** The sherpa-onnx speaker-embedding model a host loads. */
export type SherpaEmbeddingHostConfig = { model: string; numThreads: number };
export type SherpaEmbeddingHostLoaded = { dim: number };

/** Below this much speech a speaker's numbers describe a few words, not a voice (both paths). */
export const MIN_VOICE_SPEECH_MS = 3000;
/**
 * At most this much of one speaker's speech is described: two minutes hold a voice as well as an
 * hour does, and bound what goes to the host whatever the meeting's length.
 */
export const MAX_VOICE_SPEECH_MS = 120_000;

const BYTES_PER_MS = 32; // 16 kHz, 16-bit mono

/**
 * Each speaker's turns (in order, inside the audio, MAX_VOICE_SPEECH_MS in all) copied out of the
 * recording: the host is sent these minutes, not the hour.
 */
export function voicesInput(pcm: Uint8Array, speakers: ReadonlyArray<readonly VoiceTurn[]>): VoiceEmbeddingInput {
  const audioMs = Math.floor(pcm.byteLength / BYTES_PER_MS);
  const cuts: { from: number; to: number }[] = [];
  const placed: VoiceTurn[][] = [];
  let at = 0;
  for (const turns of speakers) {
    const mine: VoiceTurn[] = [];
    let total = 0;
    for (const turn of [...turns].sort((a, b) => a.startMs - b.startMs)) {
      const startMs = Math.max(0, Math.round(turn.startMs));
      const endMs = Math.min(audioMs, Math.round(turn.endMs), startMs + (MAX_VOICE_SPEECH_MS - total));
      if (endMs <= startMs) continue;
      cuts.push({ from: startMs * BYTES_PER_MS, to: endMs * BYTES_PER_MS });
      mine.push({ startMs: at, endMs: at + (endMs - startMs) });
      at += endMs - startMs;
      total += endMs - startMs;
      if (total >= MAX_VOICE_SPEECH_MS) break;
    }
    placed.push(mine);
  }
  const voices = new Uint8Array(at * BYTES_PER_MS);
  let offset = 0;
  for (const cut of cuts) {
    voices.set(pcm.subarray(cut.from, cut.to), offset);
    offset += cut.to - cut.from;
  }
  return { voices, speakers: placed };
}
