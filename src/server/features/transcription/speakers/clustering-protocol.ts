import type { SpeechFeatures } from './cluster-speakers.ts';
import type { VoiceEmbeddingInput, VoiceEmbeddingOutput } from './voice-embedding-protocol.ts';

/**
 * What the server and its speaker clustering host exchange (over lib/child-host): 16 kHz PCM in,
 * its speech features out (a decoding window at a time); then every window's features in, a
 * speaker per 16 ms frame out. Or, for voice profiles, speakers' speech in and the built-in
 * features' description of each voice out (voice-embedding.ts).
 */
export type ClusteringHostConfig = { modelsDir?: string };
/** What clustering hears speech with, and why not Silero where it is the energy detector alone. */
export type ClusteringHostLoaded = { voiceActivity: 'silero' | 'energy'; reason?: string };
export type ClusteringInput = Uint8Array | { cluster: SpeechFeatures; maxSpeakers?: number } | VoiceEmbeddingInput;
export type ClusteringOutput = SpeechFeatures | Int16Array | VoiceEmbeddingOutput;
