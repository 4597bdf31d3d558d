import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { AutoModelsStatusSchema, type AutoModelsStatus } from '#shared/contracts/status.ts';
import {
  DEFAULT_MODELS_BASE_URL,
  findCatalogEntry,
  MODEL_CATALOG,
  modelUrl,
  SUGGESTED_ASR_MODEL,
  SUGGESTED_SPEAKER_MODELS,
  type CatalogEntry,
} from './catalog.ts';
import { fetchModel, formatBytes, ModelFetchError } from './model-download.ts';
import { preferredInstalledModel } from './model-store.ts';

/**
 * Good transcripts by default: at the first start of a server that can reach the models host, the
 * recommended speech model and speaker models are fetched in the background (`npm run models`'s
 * fetchModel: size and SHA-256 checked, resumed where a broken-off attempt stopped), and the
 * engine switches to them once they load. Offline, pocketsphinx stays and /status says which
 * command gets better transcripts. PARLEY_AUTO_MODELS=false turns it off.
 *
 * How far it got is kept in $DATA_DIR/models/.auto-models.json: /status reads it (whichever process
 * serves it), and once everything is installed a later start leaves the models alone, so a model
 * the operator removed on purpose is not fetched again.
 */
export const AUTO_MODELS_FILE = '.auto-models.json';

/** The command that installs `names`, as /status and the log say it. */
export const fetchCommand = (names: readonly string[]): string => names.map((name) => `npm run models -- fetch ${name}`).join(' && ');

/** What this installation would use and lacks: which of the recommended models to fetch. */
export function missingRecommendedModels(options: {
  modelsDir: string;
  /** Recordings are transcribed by sherpa-onnx when its model is there (TRANSCRIBE_ENGINE auto without a speech service, or sherpa-onnx). */
  wantsSpeechModel: boolean;
  /** TRANSCRIBE_SHERPA_MODEL, when the operator named one. */
  speechModel?: string;
  /** Speakers may be told apart by sherpa-onnx diarization (TRANSCRIBE_SPEAKERS is not clustering). */
  wantsSpeakerModels: boolean;
  catalog?: readonly CatalogEntry[];
}): CatalogEntry[] {
  const catalog = options.catalog ?? MODEL_CATALOG;
  const names: string[] = [];
  if (options.wantsSpeechModel && !preferredInstalledModel(options.modelsDir, 'asr', (m) => m.manifest.asr !== undefined)) {
    names.push(options.speechModel ?? SUGGESTED_ASR_MODEL);
  }
  if (options.wantsSpeakerModels) {
    for (const [kind, name] of Object.entries(SUGGESTED_SPEAKER_MODELS) as [keyof typeof SUGGESTED_SPEAKER_MODELS, string][]) {
      if (!preferredInstalledModel(options.modelsDir, kind)) names.push(name);
    }
  }
  return names.flatMap((name) => findCatalogEntry(catalog, name) ?? []);
}

/** The background download's state as /status shows it ('off' or 'pending' when it left no record). */
export function readAutoModelsStatus(modelsDir: string, enabled: boolean): AutoModelsStatus {
  try {
    const parsed = AutoModelsStatusSchema.safeParse(JSON.parse(fs.readFileSync(path.join(modelsDir, AUTO_MODELS_FILE), 'utf8')));
    if (parsed.success) return parsed.data;
  } catch {
    // No record (never ran, or turned off) or one being replaced this instant: as if none.
  }
  return { state: enabled ? 'pending' : 'off', message: null, downloads: [] };
}

export type AutoModelsOptions = {
  modelsDir: string;
  /** PARLEY_MODELS_BASE_URL, or undefined for the sherpa-onnx releases. */
  baseUrl: string | undefined;
  /** PARLEY_AUTO_MODELS. */
  enabled: boolean;
  /** The models to fetch now (missingRecommendedModels with the installation's settings). */
  wanted: () => CatalogEntry[];
  /** After the models are installed: load them (the engine switches) and say what is in use now. */
  switchEngines: () => Promise<string>;
  log: Logger;
  /** How long the models host may take to answer the first look (default 10 s). */
  probeTimeoutMs?: number;
  /** Progress is written to the record at most this often (default 1 s). */
  progressIntervalMs?: number;
};

export type AutoModels = {
  /** Runs the first start's download to its end (resolves whatever happened: it is logged and recorded). */
  run: () => Promise<void>;
  /** Stops a download under way; what it received is kept for the next start. */
  stop: () => void;
};

export function createAutoModels(options: AutoModelsOptions): AutoModels {
  const { modelsDir, log } = options;
  const baseUrl = options.baseUrl ?? DEFAULT_MODELS_BASE_URL;
  const abort = new AbortController();
  const file = path.join(modelsDir, AUTO_MODELS_FILE);
  let lastWrite = 0;

  const record = (status: AutoModelsStatus) => {
    lastWrite = Date.now();
    fs.mkdirSync(modelsDir, { recursive: true });
    // Written aside and renamed, so /status never reads half a record.
    const partial = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(partial, JSON.stringify(status));
    fs.renameSync(partial, file);
  };

  const run = async () => {
    if (!options.enabled) {
      log.info('PARLEY_AUTO_MODELS=false: recommended speech models are not fetched at start');
      return;
    }
    if (readAutoModelsStatus(modelsDir, true).state === 'installed') return;
    const wanted = options.wanted();
    if (wanted.length === 0) {
      record({ state: 'installed', message: 'The recommended models were already installed.', downloads: [] });
      return;
    }
    const names = wanted.map((entry) => entry.name);
    const downloads = wanted.map((entry) => ({ name: entry.name, kind: entry.kind, receivedBytes: 0, totalBytes: entry.bytes, done: false }));
    record({ state: 'checking', message: `Looking for ${new URL(baseUrl).host} to fetch ${names.join(', ')}.`, downloads });

    const reachable = await probe(modelUrl(baseUrl, wanted[0]!), options.probeTimeoutMs ?? 10_000, abort.signal);
    if (reachable !== true) {
      const message = `The models host ${new URL(baseUrl).host} could not be reached (${reachable}): transcripts use the basic offline engine. For better transcripts run "${fetchCommand(names)}" on the server, or restart it with network access.`;
      record({ state: 'offline', message, downloads });
      log.warn(
        { models: names, reason: reachable },
        'models host unreachable: keeping the offline engine; fetch the recommended models for better transcripts',
      );
      return;
    }

    log.info({ models: names, from: baseUrl }, 'fetching the recommended speech and speaker models in the background');
    const interval = options.progressIntervalMs ?? 1000;
    let pending: NodeJS.Timeout | undefined;
    for (const [index, entry] of wanted.entries()) {
      const download = downloads[index]!;
      const write = () => {
        clearTimeout(pending);
        pending = undefined;
        record({ state: 'downloading', message: `Fetching ${entry.name} (${index + 1} of ${wanted.length}).`, downloads });
      };
      // At most once an interval, and the latest progress always within one (also when bytes stop coming).
      const update = (force = false) => {
        if (force || Date.now() - lastWrite >= interval) write();
        else pending ??= setTimeout(write, lastWrite + interval - Date.now());
      };
      try {
        const { manifest } = await fetchModel(entry, {
          modelsDir,
          baseUrl,
          resume: true,
          signal: abort.signal,
          progress: {
            start: (total) => {
              download.totalBytes = total;
              update(true);
            },
            update: (received) => {
              download.receivedBytes = received;
              update();
            },
            stop: () => undefined,
          },
        });
        download.done = true;
        download.receivedBytes = manifest.bytes;
        download.totalBytes = manifest.bytes;
        update(true);
        log.info({ model: entry.name, bytes: manifest.bytes, sha256: manifest.sha256, checksum: manifest.checksum }, 'model installed');
      } catch (error) {
        clearTimeout(pending);
        if (!(error instanceof ModelFetchError)) throw error;
        const message = `${error.message} The download goes on from where it stopped at the next start; or run "${fetchCommand(names.slice(index))}" on the server.`;
        record({ state: 'failed', message, downloads });
        log.error({ model: entry.name, reason: error.message }, 'the recommended model could not be fetched');
        return;
      }
    }
    const inUse = await options.switchEngines();
    record({
      state: 'installed',
      message: `Installed ${names.join(', ')} (${formatBytes(downloads.reduce((sum, d) => sum + d.receivedBytes, 0))}). ${inUse}`,
      downloads,
    });
    log.info({ models: names }, `recommended models installed: ${inUse}`);
  };

  return { run, stop: () => abort.abort() };
}

/**
 * true when the host answers at all, else why not (one line). Any HTTP answer will do: a wrong
 * mirror's 404 or a bad file is then said precisely by the download itself, and recorded as failed.
 */
async function probe(url: string, timeoutMs: number, signal: AbortSignal): Promise<true | string> {
  try {
    const response = await fetch(url, { method: 'HEAD', redirect: 'follow', signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) });
    await response.body?.cancel();
    return true;
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `no answer within ${Math.round(timeoutMs / 1000)} s`;
    return cause instanceof Error ? ((cause as NodeJS.ErrnoException).code ?? cause.message) : String(cause);
  }
}
