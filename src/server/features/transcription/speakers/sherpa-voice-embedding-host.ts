/**
 * The voice-embedding host: a child process of the server that holds sherpa-onnx's
 * SpeakerEmbeddingExtractor (the speaker-embedding model diarization uses) and describes each
 * speaker's voice from their speech. Started by sherpa-voice-embedding.ts (built to
 * dist/server/sherpa-voice-embedding-host.js). A child because sherpa ends the whole process on a
 * model file of the wrong kind, and because compute() runs to the end without yielding.
 */
import { serveHost } from '#server/lib/child-host/serve-host.ts';
import { loadSherpaOnnx, pcm16ToFloat32, type SherpaSpeakerEmbeddingExtractor } from '../models/sherpa-runtime.ts';
import {
  MIN_VOICE_SPEECH_MS,
  type SherpaEmbeddingHostConfig,
  type SherpaEmbeddingHostLoaded,
  type VoiceEmbeddingInput,
  type VoiceEmbeddingOutput,
} from './voice-embedding-protocol.ts';

const SAMPLE_RATE = 16_000;
let extractor: SherpaSpeakerEmbeddingExtractor;

serveHost<SherpaEmbeddingHostConfig, SherpaEmbeddingHostLoaded, VoiceEmbeddingInput, VoiceEmbeddingOutput>({
  load(config) {
    extractor = new (loadSherpaOnnx().SpeakerEmbeddingExtractor)({ model: config.model, numThreads: config.numThreads, debug: 0, provider: 'cpu' });
    return { dim: extractor.dim };
  },
  run({ voices, speakers }) {
    const samples = pcm16ToFloat32(voices);
    return speakers.map((turns) => {
      if (turns.length === 0) return null;
      // voicesInput laid each speaker's speech end to end: one stream of it, which the model averages over.
      const from = Math.floor((turns[0]!.startMs * SAMPLE_RATE) / 1000);
      const to = Math.floor((turns.at(-1)!.endMs * SAMPLE_RATE) / 1000);
      if (((to - from) / SAMPLE_RATE) * 1000 < MIN_VOICE_SPEECH_MS) return null;
      const stream = extractor.createStream();
      stream.acceptWaveform({ samples: samples.slice(from, to), sampleRate: SAMPLE_RATE });
      stream.inputFinished();
      return extractor.isReady(stream) ? Float32Array.from(extractor.compute(stream)) : null;
    });
  },
});
