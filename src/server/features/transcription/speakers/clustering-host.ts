/**
 * The speaker clustering host: a child process of the server that finds who spoke when on a mixed
 * track by clustering (cluster-speakers.ts, with Silero VAD where it loads). Started by
 * identify-speakers.ts (built to dist/server/clustering-host.js). A child because the work is
 * pure computation, half a minute on an hour of talk, which on the server's thread would stop it
 * answering anyone; and because Silero runs through sherpa-onnx's native code.
 */
import { serveHost } from '#server/lib/child-host/serve-host.ts';
import { clusterFeatures, speechFeatures } from './cluster-speakers.ts';
import type { ClusteringHostConfig, ClusteringHostLoaded, ClusteringInput, ClusteringOutput } from './clustering-protocol.ts';
import { createSpeechDetector, type SpeechDetector } from './voice-activity.ts';
import { voiceEmbedding } from './voice-embedding.ts';

let detector: SpeechDetector;

serveHost<ClusteringHostConfig, ClusteringHostLoaded, ClusteringInput, ClusteringOutput>({
  load(config) {
    const created = createSpeechDetector({ modelsDir: config.modelsDir });
    detector = created.detector;
    return { voiceActivity: detector.name, ...(created.reason ? { reason: created.reason } : {}) };
  },
  async run(input, { signal }) {
    // Speakers' speech laid end to end (voice profiles): each voice described from its own part.
    if ('voices' in input) {
      const { voices, speakers } = input;
      return speakers.map((turns) => {
        if (turns.length === 0) return null;
        const part = Buffer.from(voices.buffer, voices.byteOffset + turns[0]!.startMs * 32, (turns.at(-1)!.endMs - turns[0]!.startMs) * 32);
        return voiceEmbedding(part, [{ startMs: 0, endMs: turns.at(-1)!.endMs - turns[0]!.startMs }]) ?? null;
      });
    }
    // Every window's features: cluster them once.
    if (!(input instanceof Uint8Array)) return clusterFeatures(input.cluster, signal, input.maxSpeakers);
    const pcm = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    const speech = await detector.detect(pcm, signal);
    return speechFeatures(pcm, { signal, speech });
  },
});
