import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Pcm16k } from '#server/lib/ffmpeg.ts';
import { MODEL_CATALOG, type ModelKind } from '../models/catalog.ts';
import { findDamage, listInstalledModels, type InstalledModel } from '../models/model-store.ts';
import type { OfflineSpeakerDiarizationConfig, SpeakerDiarizationSegment } from '../models/sherpa-runtime.ts';
import type { Turn } from './diarization-error-rate.ts';

/**
 * Speaker diarization with sherpa-onnx (pyannote segmentation 3.0 finds who speaks when within
 * 10 s chunks, a speaker-embedding model describes each voice, clustering joins them across the
 * recording), once both models are fetched with `npm run models -- fetch <name>`. The models run
 * in a child process (sherpa-diarization-host.ts), like the sherpa-onnx engine's: a model that
 * cannot load makes this unavailable with the reason instead of ending the server.
 */

export type DiarizationHostRequest =
  | { type: 'load'; config: OfflineSpeakerDiarizationConfig }
  | { type: 'diarize'; id: number; pcm: Uint8Array };

export type DiarizationHostReply =
  | { type: 'loaded'; sampleRate: number }
  | { type: 'load-failed'; message: string }
  | { type: 'result'; id: number; segments: SpeakerDiarizationSegment[] }
  | { type: 'failed'; id: number; message: string };

export type Availability = { available: true } | { available: false; reason: string };

export type SherpaDiarizerOptions = {
  /** $DATA_DIR/models. */
  modelsDir: string;
  numThreads?: number;
  /**
   * Cosine-distance threshold at which clustering stops joining voices: lower finds more
   * speakers. 0.5 is sherpa-onnx's own example value for these models.
   */
  threshold?: number;
  /** The host process (and the models' memory) is let go after this long without work (default 10 min). */
  idleMs?: number;
  /** How long loading the models may take (default 1 min). */
  loadTimeoutMs?: number;
};

export type SherpaDiarizer = {
  /** The installed models it would use (whole and undamaged or not), if both kinds are there. */
  models(): { segmentation: InstalledModel; embedding: InstalledModel } | undefined;
  checkAvailability(): Promise<Availability>;
  /** Who speaks when; speakers are numbered by the model (not in order of appearance). */
  diarize(pcm: Pcm16k, options?: { signal?: AbortSignal }): Promise<Turn[]>;
  /** Stops the host process. */
  close(): Promise<void>;
};

/** The models suggested when none is installed, in the catalog's words. */
const SUGGESTED: Record<'speaker-segmentation' | 'speaker-embedding', string> = {
  'speaker-segmentation': 'pyannote-segmentation-3.0',
  'speaker-embedding': '3dspeaker-eres2net-base',
};
const RECHECK_FAILED_MS = 5 * 60_000;

/** The installed model of a kind the catalog lists first (an unknown model last). */
function preferred(modelsDir: string, kind: ModelKind): InstalledModel | undefined {
  const rank = (m: InstalledModel) => {
    const index = MODEL_CATALOG.findIndex((entry) => entry.name === m.manifest.name);
    return index === -1 ? MODEL_CATALOG.length : index;
  };
  return listInstalledModels(modelsDir, kind).sort((a, b) => rank(a) - rank(b))[0];
}

/** The segmentation model's full-precision file (the catalog keeps an int8 one beside it). */
function segmentationFile(model: InstalledModel): string {
  const files = model.manifest.files.map((f) => f.path);
  return path.join(model.dir, files.find((f) => f === 'model.onnx') ?? files.find((f) => f.endsWith('.onnx')) ?? files[0]!);
}

export function diarizationConfig(models: { segmentation: InstalledModel; embedding: InstalledModel }, settings: { numThreads: number; threshold: number }): OfflineSpeakerDiarizationConfig {
  return {
    segmentation: { pyannote: { model: segmentationFile(models.segmentation) }, numThreads: settings.numThreads, debug: 0, provider: 'cpu' },
    embedding: { model: path.join(models.embedding.dir, models.embedding.manifest.files[0]!.path), numThreads: settings.numThreads, debug: 0, provider: 'cpu' },
    // numClusters −1: the number of speakers is not known, the threshold decides.
    clustering: { numClusters: -1, threshold: settings.threshold },
    // Turns under 0.3 s are dropped, and pauses under 0.5 s inside one speaker's turn are bridged.
    minDurationOn: 0.3,
    minDurationOff: 0.5,
  };
}

export function createSherpaDiarizer(options: SherpaDiarizerOptions): SherpaDiarizer {
  const settings = {
    numThreads: options.numThreads ?? 1,
    threshold: options.threshold ?? 0.5,
    idleMs: options.idleMs ?? 10 * 60_000,
    loadTimeoutMs: options.loadTimeoutMs ?? 60_000,
  };
  let host: Host | undefined;
  let starting: Promise<Host> | undefined;
  let verdict: { key: string; availability: Availability; at: number } | undefined;

  const models = () => {
    const segmentation = preferred(options.modelsDir, 'speaker-segmentation');
    const embedding = preferred(options.modelsDir, 'speaker-embedding');
    return segmentation && embedding ? { segmentation, embedding } : undefined;
  };
  const keyOf = (m: { segmentation: InstalledModel; embedding: InstalledModel }) =>
    `${m.segmentation.manifest.name}@${m.segmentation.manifest.installedAt}+${m.embedding.manifest.name}@${m.embedding.manifest.installedAt}`;

  const hostFor = async (m: { segmentation: InstalledModel; embedding: InstalledModel }): Promise<Host> => {
    const key = keyOf(m);
    if (host && host.key === key && host.alive()) return host;
    if (starting) {
      const pending = await starting.catch(() => undefined);
      if (pending && pending.key === key && pending.alive()) return pending;
    }
    host?.stop();
    host = undefined;
    starting = startHost(key, diarizationConfig(m, settings), settings);
    try {
      host = await starting;
      return host;
    } finally {
      starting = undefined;
    }
  };

  const unavailable = (reason: string): Availability => ({ available: false, reason: `sherpa-onnx diarization: ${reason}` });

  const checkAvailability = async (): Promise<Availability> => {
    const segmentation = preferred(options.modelsDir, 'speaker-segmentation');
    const embedding = preferred(options.modelsDir, 'speaker-embedding');
    const missing = (['speaker-segmentation', 'speaker-embedding'] as const).filter((kind) => !(kind === 'speaker-segmentation' ? segmentation : embedding));
    if (!segmentation || !embedding) {
      const commands = missing.map((kind) => `"npm run models -- fetch ${SUGGESTED[kind]}"`).join(' and ');
      return unavailable(`no ${missing.map((k) => k.replace('-', ' ')).join(' or ')} model installed — run ${commands}`);
    }
    for (const model of [segmentation, embedding]) {
      const damage = findDamage(model);
      if (damage) return unavailable(`model ${model.manifest.name} is damaged (${damage}) — run "npm run models -- remove ${model.manifest.name}" and fetch it again`);
    }
    const both = { segmentation, embedding };
    const key = keyOf(both);
    if (verdict?.key === key && (verdict.availability.available || Date.now() - verdict.at < RECHECK_FAILED_MS)) return verdict.availability;
    let availability: Availability;
    try {
      await hostFor(both);
      availability = { available: true };
    } catch (error) {
      availability = unavailable(`models ${segmentation.manifest.name} and ${embedding.manifest.name} could not be loaded: ${error instanceof Error ? error.message : String(error)}`);
    }
    verdict = { key, availability, at: Date.now() };
    return availability;
  };

  return {
    models,
    checkAvailability,
    async diarize(pcm, diarizeOptions = {}) {
      diarizeOptions.signal?.throwIfAborted();
      const availability = await checkAvailability();
      if (!availability.available) throw new Error(availability.reason);
      const m = models()!;
      let segments: SpeakerDiarizationSegment[];
      try {
        segments = await (await hostFor(m)).diarize(pcm, diarizeOptions.signal);
      } catch (error) {
        // Models that load but fail on audio (an embedding model of the wrong kind ends the host
        // only here) are set aside like models that do not load, so the next jobs do not retry them.
        if (!diarizeOptions.signal?.aborted) {
          const reason = error instanceof Error ? error.message : String(error);
          verdict = { key: keyOf(m), availability: unavailable(`models ${m.segmentation.manifest.name} and ${m.embedding.manifest.name} failed on a recording: ${reason}`), at: Date.now() };
        }
        throw error;
      }
      return segments.map((s) => ({ startMs: Math.round(s.start * 1000), endMs: Math.round(s.end * 1000), speaker: String(s.speaker) }));
    },
    async close() {
      const pending = starting;
      host?.stop();
      host = undefined;
      await pending?.then((h) => h.stop()).catch(() => undefined);
    },
  };
}

type Host = {
  key: string;
  alive(): boolean;
  diarize(pcm: Pcm16k, signal?: AbortSignal): Promise<SpeakerDiarizationSegment[]>;
  stop(): void;
};

/** dist/server/sherpa-diarization-host.js beside the bundled server; the TypeScript source under tsx in development and tests. */
function hostEntry(): { file: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts')) return { file: path.join(path.dirname(here), 'sherpa-diarization-host.ts'), execArgv: ['--import', 'tsx'] };
  return { file: path.join(path.dirname(here), 'sherpa-diarization-host.js'), execArgv: [] };
}

/** sherpa's own last words on stderr, without source paths and its generic summary lines. */
function lastWords(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.replace(/^\S+\.(cc|h|cpp):\S+\s+/, '').replace(/^\s*what\(\):\s*/, '').trim())
    .filter((line) => line !== '' && !/^(Errors in config|terminate called after)/.test(line));
  return lines.at(-1) ?? '';
}

function startHost(key: string, config: OfflineSpeakerDiarizationConfig, settings: { idleMs: number; loadTimeoutMs: number }): Promise<Host> {
  const entry = hostEntry();
  // sherpa prints progress on stdout: ignored; stderr holds its reasons when it gives up.
  const child: ChildProcess = fork(entry.file, [], { execArgv: entry.execArgv, serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  let exited = false;
  /** Set when this side ends the host: it is no longer offered to callers, though its exit event is still to come. */
  let stopped = false;
  let exitReason = '';
  const requests = new Map<number, { resolve: (s: SpeakerDiarizationSegment[]) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let idleTimer: NodeJS.Timeout | undefined;

  const stop = () => {
    clearTimeout(idleTimer);
    stopped = true;
    if (!exited) child.kill('SIGKILL');
  };
  const channel = () => child.channel as { ref?: () => void; unref?: () => void } | undefined;
  // While it loads or works, the host keeps this process alive (a script awaiting a result must
  // not exit under it); idle, it never does (it exits itself when the channel closes).
  const hold = () => {
    child.ref();
    channel()?.ref?.();
  };
  const release = () => {
    child.unref();
    channel()?.unref?.();
  };
  const armIdle = () => {
    clearTimeout(idleTimer);
    if (requests.size > 0) return;
    release();
    idleTimer = setTimeout(stop, settings.idleMs).unref();
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
      for (const request of requests.values()) request.reject(new Error(`the diarization process stopped: ${exitReason}`));
      requests.clear();
    });
    child.on('error', (error) => {
      clearTimeout(loadTimer);
      reject(error);
    });
    child.on('message', (reply: DiarizationHostReply) => {
      switch (reply.type) {
        case 'loaded':
          clearTimeout(loadTimer);
          armIdle();
          resolve(running);
          break;
        case 'load-failed':
          // Rejected on 'close', where sherpa's stderr (the precise reason) is complete.
          loadFailure = reply.message;
          stop();
          break;
        case 'result':
        case 'failed': {
          const request = requests.get(reply.id);
          requests.delete(reply.id);
          armIdle();
          if (!request) break;
          if (reply.type === 'result') request.resolve(reply.segments);
          else request.reject(new Error(`sherpa-onnx could not tell the speakers apart: ${reply.message}`));
          break;
        }
      }
    });

    const running: Host = {
      key,
      alive: () => !stopped && !exited && child.connected,
      stop,
      diarize(pcm, signal) {
        return new Promise<SpeakerDiarizationSegment[]>((resolveRequest, rejectRequest) => {
          if (stopped || exited || !child.connected) return rejectRequest(new Error(`the diarization process stopped: ${exitReason || 'not running'}`));
          const id = nextId++;
          clearTimeout(idleTimer);
          hold();
          // process() cannot be interrupted: a cancelled job ends the host, the next one starts afresh.
          const onAbort = () => {
            requests.delete(id);
            release();
            stop();
            rejectRequest(new DOMException('Speaker identification was cancelled.', 'AbortError'));
          };
          signal?.addEventListener('abort', onAbort, { once: true });
          const settle = <T>(fn: (value: T) => void) => (value: T) => {
            signal?.removeEventListener('abort', onAbort);
            fn(value);
          };
          requests.set(id, { resolve: settle(resolveRequest), reject: settle(rejectRequest) });
          child.send({ type: 'diarize', id, pcm } satisfies DiarizationHostRequest);
        });
      },
    };

    child.send({ type: 'load', config } satisfies DiarizationHostRequest);
  });
}
