import type { Config } from '#server/config.ts';
import type { TranscriptionEngine } from './engine.ts';
import { createOpenAiCompatibleEngine } from './openai-compatible.ts';
import { createPocketsphinxEngine } from './pocketsphinx.ts';

/**
 * TRANSCRIBE_ENGINE picks the engine; `auto` takes the best one that is really there: a configured
 * OpenAI-compatible service, else Debian's offline pocketsphinx.
 */
export function selectTranscriptionEngine(config: Config): TranscriptionEngine {
  const { engine, openai, timeoutSeconds } = config.transcription;
  const service = openai && createOpenAiCompatibleEngine({ url: openai.url, apiKey: openai.apiKey, model: openai.model, timeoutMs: timeoutSeconds * 1000 });
  if (engine === 'openai') {
    if (!service) throw new Error('TRANSCRIBE_ENGINE=openai needs TRANSCRIBE_OPENAI_URL (and usually TRANSCRIBE_OPENAI_KEY).');
    return service;
  }
  if (engine === 'auto' && service) return service;
  return createPocketsphinxEngine();
}
