import type { Db } from '#server/db/create-db.ts';
import type { EngineStatus, InstalledModelStatus, StatusResponse } from '#shared/contracts/status.ts';
import type { TranscriptionEngine } from '../transcription/engines/engine.ts';
import type { EngineRegistry } from '../transcription/engines/select-engine.ts';
import type { SherpaOnnxEngine } from '../transcription/engines/sherpa-onnx.ts';
import { findCatalogEntry, MODEL_CATALOG } from '../transcription/models/catalog.ts';
import { listInstalledModels } from '../transcription/models/model-store.ts';
import { loadSileroVad } from '../transcription/models/silero-vad.ts';

export type StatusDeps = { db: Db; engines: EngineRegistry; modelsDir: string };

/** The transcription engines (which is in use and why the others are not), installed models, VAD and queue. */
export async function collectStatus(deps: StatusDeps): Promise<StatusResponse> {
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
  return {
    transcription: {
      setting: deps.engines.setting,
      inUse: inUse.name,
      engines,
      models,
      voiceActivityDetection: vadStatus(deps.modelsDir),
      queue: await queueDepth(deps.db),
    },
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

async function queueDepth(db: Db): Promise<{ queued: number; running: number }> {
  const rows = await db
    .selectFrom('transcription_jobs')
    .select(['status', db.fn.countAll<string | number>().as('count')])
    .where('status', 'in', ['queued', 'running'])
    .groupBy('status')
    .execute();
  const count = (status: string) => Number(rows.find((r) => r.status === status)?.count ?? 0);
  return { queued: count('queued'), running: count('running') };
}
