import { cosineSimilarity } from '#server/lib/cosine-similarity.ts';
import type { VoicePath } from '../pipeline-types.ts';
import { pooledVoice, voiceSimilarity } from './voice-embedding.ts';

/**
 * How the voices of one path are compared (voice profiles): how alike two descriptions are, and one
 * description of a person from those of several meetings. Only descriptions of the same key are
 * compared; the voice-profiles feature learns the others again.
 */
export type VoiceComparison = {
  similarity: (a: ArrayLike<number>, b: ArrayLike<number>) => number;
  pool: (voices: ReadonlyArray<ArrayLike<number>>) => number[] | undefined;
};

/** The mean of several vectors of one length (undefined when there are none or their lengths differ). */
function meanVector(voices: ReadonlyArray<ArrayLike<number>>): number[] | undefined {
  const dims = voices[0]?.length ?? 0;
  if (dims === 0 || voices.some((v) => v.length !== dims)) return undefined;
  const out = new Array<number>(dims).fill(0);
  for (const v of voices) for (let i = 0; i < dims; i++) out[i]! += v[i]! / voices.length;
  return out;
}

const COMPARISONS: Record<VoicePath['kind'], VoiceComparison> = {
  // The built-in numbers are means and spreads: compared and pooled as the Gaussians they describe.
  'built-in': { similarity: voiceSimilarity, pool: pooledVoice },
  // A speaker-embedding model's vectors: their direction is the voice.
  'sherpa-onnx': { similarity: cosineSimilarity, pool: meanVector },
};

export const voiceComparison = (kind: VoicePath['kind']): VoiceComparison => COMPARISONS[kind];
