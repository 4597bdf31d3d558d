import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MODEL_CATALOG, SUGGESTED_ASR_MODEL } from '../models/catalog.ts';
import { findDamage, listInstalledModels, readInstalledModel, type InstalledModel } from '../models/model-store.ts';
import type { OfflineRecognizerConfig } from '../models/sherpa-runtime.ts';
import type { EngineAvailability, RecognizedSegment, TranscribeOptions, TranscriptionEngine } from './engine.ts';
import type { HostReply, HostRequest } from './sherpa-onnx-protocol.ts';

export type SherpaOnnxEngineOptions = {
  /** $DATA_DIR/models. */
  modelsDir: string;
  /** Use this installed ASR model (TRANSCRIBE_SHERPA_MODEL); otherwise the catalog's most preferred one installed. */
  model?: string;
  numThreads?: number;
  /** The host process (and the model's memory) is let go after this long without work (default 10 min). */
  idleMs?: number;
  /** How long loading a model may take (default 3 min: the 0.6B models are 650 MB). */
  loadTimeoutMs?: number;
};

export type SherpaOnnxEngine = TranscriptionEngine & {
  /** The installed ASR model the engine would use, if any. */
  selectedModel(): InstalledModel | undefined;
  /** Stops the host process. */
  close(): Promise<void>;
};

/** A failed load is tried again after this long (a fixed model, more memory…) without a restart. */
const RECHECK_FAILED_MS = 5 * 60_000;
/** Speech is recognised in stretches of at most this (whisper models take under 30 s). */
const MAX_SPEECH_MS = 20_000;

/**
 * The quality engine: a sherpa-onnx speech model fetched with `npm run models -- fetch <name>`,
 * run in a child process (see sherpa-onnx-host.ts) that cuts the audio at pauses with Silero VAD
 * and recognises each stretch. The server's event loop never waits on the model, a model that
 * cannot load makes the engine unavailable with the reason, and a crash of the host fails only
 * the job at hand (which the job runner retries).
 */
export function createSherpaOnnxEngine(options: SherpaOnnxEngineOptions): SherpaOnnxEngine {
  const numThreads = options.numThreads ?? Math.max(1, Math.min(4, os.availableParallelism() - 1));
  const idleMs = options.idleMs ?? 10 * 60_000;
  const loadTimeoutMs = options.loadTimeoutMs ?? 3 * 60_000;
  let verdict: { key: string; availability: EngineAvailability; at: number } | undefined;
  let host: Host | undefined;
  let starting: Promise<Host> | undefined;

  const selectedModel = (): InstalledModel | undefined => {
    if (options.model) return readInstalledModel(options.modelsDir, options.model);
    const installed = listInstalledModels(options.modelsDir, 'asr').filter((m) => m.manifest.asr);
    const rank = (m: InstalledModel) => {
      const index = MODEL_CATALOG.findIndex((entry) => entry.name === m.manifest.name);
      return index === -1 ? MODEL_CATALOG.length : index;
    };
    return installed.sort((a, b) => rank(a) - rank(b))[0];
  };
  const keyOf = (model: InstalledModel) => `${model.manifest.name}@${model.manifest.installedAt}`;

  /** A host with `model` loaded: the running one, or a new one. Concurrent callers share the start. */
  const hostFor = async (model: InstalledModel): Promise<Host> => {
    const key = keyOf(model);
    if (host && host.key === key && host.alive()) return host;
    if (starting) {
      const pending = await starting.catch(() => undefined);
      if (pending && pending.key === key && pending.alive()) return pending;
    }
    host?.stop();
    host = undefined;
    starting = startHost(model, key, { numThreads, idleMs, loadTimeoutMs, modelsDir: options.modelsDir });
    try {
      host = await starting;
      return host;
    } finally {
      starting = undefined;
    }
  };

  const unavailable = (reason: string): EngineAvailability => ({ available: false, reason: `sherpa-onnx: ${reason}` });

  return {
    name: 'sherpa-onnx',
    selectedModel,
    async checkAvailability(): Promise<EngineAvailability> {
      const model = selectedModel();
      if (!model) {
        const wanted = options.model ?? SUGGESTED_ASR_MODEL;
        return unavailable(
          options.model ? `model ${options.model} (TRANSCRIBE_SHERPA_MODEL) is not installed — run "npm run models -- fetch ${wanted}"` : `no speech model installed — run "npm run models -- fetch ${wanted}"`,
        );
      }
      const name = model.manifest.name;
      if (!model.manifest.asr) return unavailable(`${name} is not a speech recognition model`);
      const damage = findDamage(model);
      if (damage) return unavailable(`model ${name} is damaged (${damage}) — run "npm run models -- remove ${name}" and fetch it again`);
      const key = keyOf(model);
      if (verdict?.key === key && (verdict.availability.available || Date.now() - verdict.at < RECHECK_FAILED_MS)) return verdict.availability;
      let availability: EngineAvailability;
      try {
        await hostFor(model);
        availability = { available: true };
      } catch (error) {
        availability = unavailable(`model ${name} could not be loaded: ${error instanceof Error ? error.message : String(error)}`);
      }
      verdict = { key, availability, at: Date.now() };
      return availability;
    },
    async transcribe(pcm, transcribeOptions: TranscribeOptions = {}): Promise<RecognizedSegment[]> {
      const model = selectedModel();
      if (!model?.manifest.asr) throw new Error('sherpa-onnx: no speech model installed');
      transcribeOptions.signal?.throwIfAborted();
      const running = await hostFor(model);
      return running.transcribe(pcm, transcribeOptions);
    },
    async close() {
      const pending = starting;
      host?.stop();
      host = undefined;
      await pending?.then((h) => h.stop()).catch(() => undefined);
    },
  };
}

/** The recogniser configuration sherpa-onnx-node takes for an installed model's files. */
export function recognizerConfig(model: InstalledModel, numThreads: number): OfflineRecognizerConfig {
  const loader = model.manifest.asr;
  if (!loader) throw new Error(`${model.manifest.name} is not a speech recognition model`);
  const file = (name: string) => path.join(model.dir, name);
  const common = { tokens: file(loader.tokens), numThreads, provider: 'cpu', debug: 0 };
  switch (loader.type) {
    case 'nemo_transducer':
    case 'transducer':
      return {
        featConfig: { sampleRate: 16_000, featureDim: 80 },
        modelConfig: { transducer: { encoder: file(loader.encoder), decoder: file(loader.decoder), joiner: file(loader.joiner) }, ...common, modelType: loader.type },
        decodingMethod: 'greedy_search',
      };
    case 'whisper':
      return {
        featConfig: { sampleRate: 16_000, featureDim: 80 },
        modelConfig: { whisper: { encoder: file(loader.encoder), decoder: file(loader.decoder), language: loader.language ?? '', task: 'transcribe', tailPaddings: -1 }, ...common },
      };
    case 'sense_voice':
      return {
        featConfig: { sampleRate: 16_000, featureDim: 80 },
        modelConfig: { senseVoice: { model: file(loader.model), language: 'auto', useInverseTextNormalization: 1 }, ...common },
      };
  }
}

type Host = {
  key: string;
  alive(): boolean;
  transcribe(pcm: Buffer, options: TranscribeOptions): Promise<RecognizedSegment[]>;
  stop(): void;
};

/** dist/server/sherpa-onnx-host.js beside the bundled server; the TypeScript source under tsx in development and tests. */
function hostEntry(): { file: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts')) return { file: path.join(path.dirname(here), 'sherpa-onnx-host.ts'), execArgv: ['--import', 'tsx'] };
  return { file: path.join(path.dirname(here), 'sherpa-onnx-host.js'), execArgv: [] };
}

/**
 * The reason sherpa gave on stderr before it ended the process: its last located message
 * ("…/offline-transducer-nemo-model.cc:InitEncoder:204 'vocab_size' does not exist in the metadata")
 * without the source path, skipping generic summaries and the help text some messages are followed
 * by; else the last line it wrote.
 */
export function lastWords(stderr: string): string {
  const lines = stderr.split('\n').map((line) => line.trim()).filter((line) => line !== '');
  const located = lines
    .map((line) => /^\S+\.(?:cc|cpp|h):\w+:\d+\s+(.+)$/.exec(line)?.[1])
    .filter((message): message is string => message !== undefined && !/^Errors in config/.test(message));
  if (located.length > 0) return located.at(-1)!;
  const last = lines.filter((line) => !/^terminate called after/.test(line)).at(-1) ?? '';
  return last.replace(/^what\(\):\s*/, '');
}

function startHost(model: InstalledModel, key: string, settings: { numThreads: number; idleMs: number; loadTimeoutMs: number; modelsDir: string }): Promise<Host> {
  const entry = hostEntry();
  const child: ChildProcess = fork(entry.file, [], { execArgv: entry.execArgv, serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  let exited = false;
  let exitReason = '';
  const requests = new Map<number, { resolve: (s: RecognizedSegment[]) => void; reject: (e: Error) => void; onProgress?: (f: number) => void }>();
  let nextId = 1;
  let idleTimer: NodeJS.Timeout | undefined;

  const stop = () => {
    clearTimeout(idleTimer);
    if (!exited) child.kill('SIGKILL');
  };
  const armIdle = () => {
    clearTimeout(idleTimer);
    if (requests.size === 0) idleTimer = setTimeout(stop, settings.idleMs).unref();
  };

  return new Promise<Host>((resolve, reject) => {
    const loadTimer = setTimeout(() => {
      stop();
      reject(new Error(`loading took longer than ${Math.round(settings.loadTimeoutMs / 1000)} s`));
    }, settings.loadTimeoutMs);

    let loadFailure: string | undefined;
    child.on('exit', () => {
      exited = true;
      clearTimeout(idleTimer);
    });
    // 'close' comes after stderr has delivered everything the process wrote before it ended.
    child.on('close', (code, signal) => {
      exited = true;
      clearTimeout(loadTimer);
      exitReason = lastWords(stderr) || loadFailure || (signal ? `stopped by ${signal}` : `exited with code ${code}`);
      reject(new Error(exitReason));
      for (const request of requests.values()) request.reject(new Error(`sherpa-onnx stopped while transcribing: ${exitReason}`));
      requests.clear();
    });
    child.on('error', (error) => {
      clearTimeout(loadTimer);
      reject(error);
    });
    child.on('message', (reply: HostReply) => {
      switch (reply.type) {
        case 'loaded':
          clearTimeout(loadTimer);
          armIdle();
          resolve(host);
          break;
        case 'load-failed':
          // Rejected on 'close', where sherpa's stderr (the precise reason) is complete.
          loadFailure = reply.message;
          stop();
          break;
        case 'progress':
          requests.get(reply.id)?.onProgress?.(reply.fraction);
          break;
        case 'result':
        case 'failed': {
          const request = requests.get(reply.id);
          requests.delete(reply.id);
          armIdle();
          if (!request) break;
          if (reply.type === 'result') request.resolve(reply.segments);
          else if (reply.cancelled) request.reject(new DOMException('The transcription was cancelled.', 'AbortError'));
          else request.reject(new Error(`sherpa-onnx could not transcribe: ${reply.message}`));
          break;
        }
      }
    });

    const host: Host = {
      key,
      alive: () => !exited && child.connected,
      stop,
      transcribe(pcm, options) {
        return new Promise<RecognizedSegment[]>((resolveRequest, rejectRequest) => {
          if (exited || !child.connected) return rejectRequest(new Error(`sherpa-onnx stopped: ${exitReason || 'not running'}`));
          const id = nextId++;
          clearTimeout(idleTimer);
          const onAbort = () => child.connected && child.send({ type: 'cancel', id } satisfies HostRequest);
          options.signal?.addEventListener('abort', onAbort, { once: true });
          const settle = <T>(fn: (value: T) => void) => (value: T) => {
            options.signal?.removeEventListener('abort', onAbort);
            fn(value);
          };
          requests.set(id, { resolve: settle(resolveRequest), reject: settle(rejectRequest), onProgress: options.onProgress });
          child.send({ type: 'transcribe', id, pcm } satisfies HostRequest);
        });
      },
    };

    child.send({ type: 'load', recognizer: recognizerConfig(model, settings.numThreads), modelsDir: settings.modelsDir, maxSpeechMs: MAX_SPEECH_MS } satisfies HostRequest);
    // The host never keeps the server alive on its own (it exits when the channel closes).
    child.unref();
    (child.channel as { unref?: () => void } | undefined)?.unref?.();
  });
}
