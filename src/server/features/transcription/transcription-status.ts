import type { EngineStatus, InstalledModelStatus, StatusResponse } from '#shared/contracts/status.ts';
import type { TranscriptionEngine } from './engines/engine.ts';
import type { EngineRegistry } from './engines/select-engine.ts';
import type { SherpaOnnxEngine } from './engines/sherpa-onnx.ts';
import { fetchCommand, readAutoModelsStatus } from './models/auto-models.ts';
import { findCatalogEntry, MODEL_CATALOG, type CatalogEntry } from './models/catalog.ts';
import { listInstalledModels } from './models/model-store.ts';
import { loadSileroVad } from './models/silero-vad.ts';

export type TranscriptionStatusDeps = {
  engines: EngineRegistry;
  modelsDir: string;
  autoModels: { enabled: boolean; wanted: () => CatalogEntry[] };
  queueCounts: () => Promise<{ queued: number; running: number }>;
};

/** The transcription engines (which is in use and why the others are not), installed models, VAD and queue. */
export async function transcriptionStatus(deps: TranscriptionStatusDeps): Promise<StatusResponse['transcription']> {
  const { engine: inUse } = await deps.engines.resolve();
  const engines: EngineStatus[] = [];
  for (const engine of deps.engines.engines) {
    const availability = await engine.checkAvailability();
    engines.push({
      name: engine.name,
      detail: detailOf(engine, deps.engines.sherpa),
      available: availability.available,
      reason: availability.available ? null : availability.reason,
      inUse: engine === inUse,
    });
  }
  const models: InstalledModelStatus[] = listInstalledModels(deps.modelsDir).map(({ manifest }) => ({
    name: manifest.name,
    kind: manifest.kind,
    description: findCatalogEntry(MODEL_CATALOG, manifest.name)?.description ?? null,
    bytes: manifest.files.reduce((sum, f) => sum + f.bytes, 0),
    checksum: manifest.checksum,
    installedAt: manifest.installedAt,
  }));
  // On the basic engine with a better one to be had: the command that gets it.
  const missing = inUse.name === 'pocketsphinx' ? deps.autoModels.wanted() : [];
  return {
    setting: deps.engines.setting,
    inUse: inUse.name,
    engines,
    models,
    voiceActivityDetection: vadStatus(deps.modelsDir),
    queue: await deps.queueCounts(),
    autoModels: readAutoModelsStatus(deps.modelsDir, deps.autoModels.enabled),
    betterTranscripts: missing.some((entry) => entry.kind === 'asr') ? fetchCommand(missing.map((entry) => entry.name)) : null,
  };
}

function detailOf(engine: TranscriptionEngine, sherpa: SherpaOnnxEngine): string {
  if (engine.name === 'openai-compatible') return 'speech service';
  if (engine === sherpa) {
    const model = sherpa.selectedModel();
    return model ? `offline, model ${model.manifest.name}` : 'offline';
  }
  return 'offline';
}

function vadStatus(modelsDir: string): StatusResponse['transcription']['voiceActivityDetection'] {
  try {
    const vad = loadSileroVad({ modelsDir });
    return { available: true, source: vad.origin, reason: null };
  } catch (error) {
    return { available: false, source: null, reason: error instanceof Error ? error.message : String(error) };
  }
}
