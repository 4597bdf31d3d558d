import path from 'node:path';
import { createHostSlot, hostEntry, startHost, type Host } from '#server/lib/child-host/host-client.ts';
import { SUGGESTED_SPEAKER_MODELS } from '../models/catalog.ts';
import { createLoadVerdict } from '../models/load-verdict.ts';
import { findDamage, installKey, preferredInstalledModel, type InstalledModel } from '../models/model-store.ts';
import type { Availability } from './sherpa-diarization.ts';
import type { SherpaEmbeddingHostConfig, SherpaEmbeddingHostLoaded, VoiceEmbeddingInput, VoiceEmbeddingOutput } from './voice-embedding-protocol.ts';

/**
 * Voices described by sherpa-onnx's speaker-embedding model, the one its diarization uses
 * (`npm run models -- fetch <name>`), in a child process (sherpa-voice-embedding-host.ts) like the
 * diarization's: a model that cannot load makes this unavailable with the reason.
 */
export type SherpaVoiceEmbedder = {
  /** The installed speaker-embedding model it would use. */
  model(): InstalledModel | undefined;
  checkAvailability(): Promise<Availability>;
  embed(input: VoiceEmbeddingInput, options?: { signal?: AbortSignal }): Promise<VoiceEmbeddingOutput>;
  close(): Promise<void>;
};

type EmbeddingHost = Host<SherpaEmbeddingHostLoaded, VoiceEmbeddingInput, VoiceEmbeddingOutput>;

export function createSherpaVoiceEmbedder(options: { modelsDir: string; idleMs?: number; loadTimeoutMs?: number }): SherpaVoiceEmbedder {
  const slot = createHostSlot<EmbeddingHost>();
  const verdict = createLoadVerdict<Availability>();
  const model = () => preferredInstalledModel(options.modelsDir, 'speaker-embedding');
  const hostFor = (m: InstalledModel): Promise<EmbeddingHost> =>
    slot.get(installKey(m), () =>
      startHost<SherpaEmbeddingHostConfig, SherpaEmbeddingHostLoaded, VoiceEmbeddingInput, VoiceEmbeddingOutput>({
        entry: hostEntry(import.meta.url, 'sherpa-voice-embedding-host'),
        config: { model: path.join(m.dir, m.manifest.files[0]!.path), numThreads: 1 },
        abort: 'kill',
        idleMs: options.idleMs ?? 10 * 60_000,
        loadTimeoutMs: options.loadTimeoutMs ?? 60_000,
        words: {
          stopped: 'the voice embedding process stopped',
          failed: 'sherpa-onnx could not describe the voices',
          cancelled: 'Describing the voices was cancelled.',
        },
      }),
    );
  const unavailable = (reason: string): Availability => ({ available: false, reason: `sherpa-onnx speaker embedding: ${reason}` });

  const checkAvailability = async (): Promise<Availability> => {
    const m = model();
    if (!m) return unavailable(`no speaker embedding model installed — run "npm run models -- fetch ${SUGGESTED_SPEAKER_MODELS['speaker-embedding']}"`);
    const damage = findDamage(m);
    if (damage) return unavailable(`model ${m.manifest.name} is damaged (${damage})`);
    return verdict.check(installKey(m), async () => {
      try {
        await hostFor(m);
        return { available: true };
      } catch (error) {
        return unavailable(`model ${m.manifest.name} could not be loaded: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
  };

  return {
    model,
    checkAvailability,
    async embed(input, embedOptions = {}) {
      const availability = await checkAvailability();
      if (!availability.available) throw new Error(availability.reason);
      return (await hostFor(model()!)).run(input, { signal: embedOptions.signal });
    },
    close: () => slot.close(),
  };
}
