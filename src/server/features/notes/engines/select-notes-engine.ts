import type { Config } from '#server/config.ts';
import type { NotesEngine } from '../notes-types.ts';
import { createLlmNotesEngine, type LlmNotesEngine } from './llm/llm-notes-engine.ts';
import { createLocalNotesEngine, type LocalNotesEngine } from './local/local-notes-engine.ts';

export type NotesEngineStatus = { name: 'local' | 'llm'; detail: string; available: boolean; reason: string | null; inUse: boolean };

export type NotesEngines = {
  setting: Config['notes']['engine'];
  local: LocalNotesEngine;
  llm: LlmNotesEngine | undefined;
  /** The engine for the next meeting: the configured one, or for `auto` the LLM when it answers, else local. */
  resolve: () => Promise<NotesEngine>;
  /** Both engines, which is in use and why the other is not (the status page). */
  status: () => Promise<NotesEngineStatus[]>;
  close: () => Promise<void>;
};

/** How long an LLM availability answer is trusted: one probe per meeting would be wasteful. */
const AVAILABILITY_TTL_MS = 30_000;

/**
 * NOTES_ENGINE picks the notes engine. `auto` takes an OpenAI-compatible LLM when NOTES_LLM_URL is
 * set and it answers (its model listed), else the local engine, which is always there. With `llm`
 * an unreachable LLM fails the notes (with its reason, and a retry later) instead of quietly
 * writing local notes.
 */
export function createNotesEngines(config: Config): NotesEngines {
  const local = createLocalNotesEngine();
  const { llm: llmConfig, engine: setting } = config.notes;
  const llm =
    llmConfig &&
    createLlmNotesEngine({
      url: llmConfig.url,
      apiKey: llmConfig.apiKey,
      model: llmConfig.model,
      contextTokens: llmConfig.contextTokens,
      timeoutMs: llmConfig.timeoutSeconds * 1000,
      local,
    });
  let checked: { at: number; availability: Awaited<ReturnType<LlmNotesEngine['checkAvailability']>> } | undefined;
  const llmAvailability = async () => {
    if (!llm) return { available: false as const, reason: 'No notes LLM is configured (NOTES_LLM_URL and NOTES_LLM_MODEL).' };
    if (!checked || Date.now() - checked.at > AVAILABILITY_TTL_MS) checked = { at: Date.now(), availability: await llm.checkAvailability() };
    return checked.availability;
  };
  const resolve = async (): Promise<NotesEngine> => {
    if (setting === 'local' || !llm) return local;
    if (setting === 'llm') return llm;
    return (await llmAvailability()).available ? llm : local;
  };
  return {
    setting,
    local,
    llm,
    resolve,
    status: async () => {
      const inUse = await resolve();
      const availability = await llmAvailability();
      return [
        ...(llm || setting !== 'local'
          ? [
              {
                name: 'llm' as const,
                detail: llmConfig ? `${llmConfig.model} at ${new URL(llmConfig.url).host}` : 'not configured',
                available: availability.available,
                reason: availability.available ? null : availability.reason,
                inUse: inUse === llm,
              },
            ]
          : []),
        { name: 'local' as const, detail: 'offline, on this server', available: true, reason: null, inUse: inUse === local },
      ];
    },
    close: () => local.close(),
  };
}
