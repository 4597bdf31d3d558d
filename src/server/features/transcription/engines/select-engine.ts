import type { Config } from '#server/config.ts';
import type { EngineAvailability, TranscriptionEngine } from './engine.ts';
import { createOpenAiCompatibleEngine } from './openai-compatible.ts';
import { createPocketsphinxEngine } from './pocketsphinx.ts';
import { createSherpaOnnxEngine, type SherpaOnnxEngine } from './sherpa-onnx.ts';

export type EngineSetting = Config['transcription']['engine'];

export type EngineRegistry = {
  /** TRANSCRIBE_ENGINE as configured. */
  setting: EngineSetting;
  /** Every engine this installation knows, in the order `auto` prefers them (openai only when configured). */
  engines: readonly TranscriptionEngine[];
  /** The sherpa-onnx engine among them (the status page names its model). */
  sherpa: SherpaOnnxEngine;
  /** The engine in use now: the configured one, or for `auto` the best one that is really available. */
  resolve(): Promise<{ engine: TranscriptionEngine; availability: EngineAvailability }>;
  /** What the transcription jobs hold: it follows resolve(), and its name is the engine in use. */
  engine: TranscriptionEngine;
  /** Stops engines that keep a process (sherpa-onnx's host). */
  close(): Promise<void>;
};

/**
 * TRANSCRIBE_ENGINE picks the engine. `auto` takes the best one that is really there: a configured
 * OpenAI-compatible service; else sherpa-onnx when a speech model is installed and loads; else
 * Debian's offline pocketsphinx.
 */
export function createEngineRegistry(config: Config): EngineRegistry {
  const { engine: setting, openai, timeoutSeconds } = config.transcription;
  const service = openai && createOpenAiCompatibleEngine({ url: openai.url, apiKey: openai.apiKey, model: openai.model, timeoutMs: timeoutSeconds * 1000 });
  if (setting === 'openai' && !service) throw new Error('TRANSCRIBE_ENGINE=openai needs TRANSCRIBE_OPENAI_URL (and usually TRANSCRIBE_OPENAI_KEY).');
  const sherpa = createSherpaOnnxEngine({ modelsDir: config.models.dir, model: config.transcription.sherpaModel });
  const pocketsphinx = createPocketsphinxEngine();
  const engines: TranscriptionEngine[] = [...(service ? [service] : []), sherpa, pocketsphinx];

  const fixed = setting === 'openai' ? service! : setting === 'sherpa-onnx' ? sherpa : setting === 'pocketsphinx' ? pocketsphinx : undefined;
  // Before the first check, `auto` names what it will most likely pick (a cheap look at the disk).
  let current: TranscriptionEngine = fixed ?? service ?? (sherpa.selectedModel() ? sherpa : pocketsphinx);

  const resolve = async (): Promise<{ engine: TranscriptionEngine; availability: EngineAvailability }> => {
    if (fixed) return { engine: fixed, availability: await fixed.checkAvailability() };
    if (service) {
      current = service;
      return { engine: service, availability: await service.checkAvailability() };
    }
    const sherpaAvailability = await sherpa.checkAvailability();
    current = sherpaAvailability.available ? sherpa : pocketsphinx;
    return { engine: current, availability: sherpaAvailability.available ? sherpaAvailability : await pocketsphinx.checkAvailability() };
  };

  const engine: TranscriptionEngine = {
    get name() {
      return current.name;
    },
    async checkAvailability() {
      return (await resolve()).availability;
    },
    async transcribe(pcm, options) {
      const { engine: chosen } = await resolve();
      return chosen.transcribe(pcm, options);
    },
  };

  return { setting, engines, sherpa, resolve, engine, close: () => sherpa.close() };
}
