import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lastWords } from './last-words.ts';
import type { HostReply, HostRequest } from './protocol.ts';

/**
 * The server's side of a host process: a child it forks for work that must not run on its event
 * loop (speaker clustering, for minutes on a long meeting) or that may end the whole process
 * (sherpa-onnx calls exit() on a model file of the wrong kind). The host loads once, runs one
 * request at a time, keeps the server alive only while it works, and is let go when idle. When it
 * ends, its last words on stderr are the reason every caller is given.
 */

/** Where a host's entry module is: `<stem>.ts` beside the caller from source, `<stem>.js` beside the bundled server. */
export type HostEntry = { file: string; execArgv: string[] };

/**
 * How a Node process runs a TypeScript entry file: Node strips the types itself where it can (22.18
 * and later; the source is erasable syntax only, see tsconfig), at half tsx's start-up CPU; else tsx.
 */
export const TYPESCRIPT_EXEC_ARGV: readonly string[] = process.features.typescript ? [] : ['--import', 'tsx'];

/** `callerUrl`: the caller's import.meta.url; its host's source lies beside it, and the build puts the bundle beside main.js. */
export function hostEntry(callerUrl: string, stem: string): HostEntry {
  const here = fileURLToPath(callerUrl);
  if (here.endsWith('.ts')) return { file: path.join(path.dirname(here), `${stem}.ts`), execArgv: [...TYPESCRIPT_EXEC_ARGV] };
  return { file: path.join(path.dirname(here), `${stem}.js`), execArgv: [] };
}

export type HostOptions<Config> = {
  entry: HostEntry;
  config: Config;
  /**
   * What an aborted request does: `message` asks the host to stop at its next check (it answers
   * "cancelled"); `kill` ends the host, for work that cannot be interrupted (the next request
   * starts a fresh one).
   */
  abort: 'message' | 'kill';
  /** The host (and its memory) is let go after this long without work. */
  idleMs: number;
  loadTimeoutMs: number;
  /** Beginnings of the errors callers see: `${stopped}: <reason>`, `${failed}: <message>`, and the cancellation's message. */
  words: { stopped: string; failed: string; cancelled: string };
};

/** `context`: a small structured-clonable value the host's run receives beside the input (its options for this run). */
export type RunOptions = { signal?: AbortSignal; onProgress?: (fraction: number) => void; context?: unknown };

export type Host<Loaded, Input, Output> = {
  /** What the host reported when it had loaded. */
  loaded: Loaded;
  alive(): boolean;
  run(input: Input, options?: RunOptions): Promise<Output>;
  stop(): void;
};

const PART_BYTES = 1 << 20;

type Pending<Output> = { resolve: (output: Output) => void; reject: (error: Error) => void; onProgress?: (fraction: number) => void };

/** Forks the host and loads it; rejects with the host's own reason when loading fails or the process ends. */
export function startHost<Config, Loaded, Input, Output>(options: HostOptions<Config>): Promise<Host<Loaded, Input, Output>> {
  // stdout is ignored (sherpa prints progress there); stderr holds the reasons a host gives up.
  const child: ChildProcess = fork(options.entry.file, [], {
    execArgv: options.entry.execArgv,
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  let exited = false;
  /** Set when this side ends the host: it is no longer offered to callers, though its exit is still to come. */
  let stopped = false;
  let exitReason = '';
  const requests = new Map<number, Pending<Output>>();
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
    idleTimer = setTimeout(stop, options.idleMs).unref();
  };
  const send = (request: HostRequest<Config, Input>) => child.send(request);
  /**
   * Bytes over PART_BYTES go in parts with a turn of the event loop between them: serialising
   * 115 MB in one message held the server's loop for half a second.
   */
  const sendInput = async (id: number, input: Input, signal?: AbortSignal, context?: unknown) => {
    if (!(input instanceof Uint8Array) || input.byteLength <= PART_BYTES) return void send({ type: 'run', id, input, context });
    // Cancelled meanwhile, the rest is not sent; the 'run' still goes, for the host to answer "cancelled".
    for (let offset = 0; offset < input.byteLength && !signal?.aborted; offset += PART_BYTES) {
      if (!requests.has(id) || !child.connected) return; // ended by the cancellation, or the host ended
      send({ type: 'part', id, bytes: input.subarray(offset, offset + PART_BYTES) });
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    if (requests.has(id) && child.connected) send({ type: 'run', id, context });
  };

  return new Promise<Host<Loaded, Input, Output>>((resolve, reject) => {
    const loadTimer = setTimeout(() => {
      stop();
      reject(new Error(`loading took longer than ${Math.round(options.loadTimeoutMs / 1000)} s`));
    }, options.loadTimeoutMs);
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
      for (const request of requests.values()) request.reject(new Error(`${options.words.stopped}: ${exitReason}`));
      requests.clear();
    });
    child.on('error', (error) => {
      clearTimeout(loadTimer);
      reject(error);
    });
    child.on('message', (reply: HostReply<Loaded, Output>) => {
      switch (reply.type) {
        case 'loaded':
          clearTimeout(loadTimer);
          armIdle();
          resolve({ ...host, loaded: reply.info });
          break;
        case 'load-failed':
          // Rejected on 'close', where the host's stderr (often the precise reason) is complete.
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
          if (reply.type === 'result') request.resolve(reply.output);
          else if (reply.cancelled) request.reject(new DOMException(options.words.cancelled, 'AbortError'));
          else request.reject(new Error(`${options.words.failed}: ${reply.message}`));
          break;
        }
      }
    });

    const host: Omit<Host<Loaded, Input, Output>, 'loaded'> = {
      alive: () => !stopped && !exited && child.connected,
      stop,
      run(input, runOptions = {}) {
        const { signal, onProgress } = runOptions;
        return new Promise<Output>((resolveRun, rejectRun) => {
          if (signal?.aborted) return rejectRun(new DOMException(options.words.cancelled, 'AbortError'));
          if (stopped || exited || !child.connected) return rejectRun(new Error(`${options.words.stopped}: ${exitReason || 'not running'}`));
          const id = nextId++;
          clearTimeout(idleTimer);
          hold();
          const onAbort = () => {
            if (options.abort === 'message') {
              if (child.connected) send({ type: 'cancel', id });
              return;
            }
            requests.delete(id);
            stop();
            rejectRun(new DOMException(options.words.cancelled, 'AbortError'));
          };
          signal?.addEventListener('abort', onAbort, { once: true });
          const settle =
            <T>(fn: (value: T) => void) =>
            (value: T) => {
              signal?.removeEventListener('abort', onAbort);
              fn(value);
            };
          requests.set(id, { resolve: settle(resolveRun), reject: settle(rejectRun), onProgress });
          void sendInput(id, input, signal, runOptions.context);
        });
      },
    };

    hold();
    send({ type: 'load', config: options.config });
  });
}

/**
 * At most one running host, for the current key (a model and its install time): callers asking
 * at once share one start, and a host for an older key is let go.
 */
export type HostSlot<H> = { get(key: string, start: () => Promise<H>): Promise<H>; close(): Promise<void> };

export function createHostSlot<H extends { alive(): boolean; stop(): void }>(): HostSlot<H> {
  let current: { key: string; host: H } | undefined;
  let starting: Promise<H> | undefined;
  return {
    async get(key, start) {
      // Callers asking while a host starts wait for it, then take it if it is the one they want.
      while (starting) await starting.catch(() => undefined); // a failed start is its starter's to report: this caller starts its own
      if (current && current.key === key && current.host.alive()) return current.host;
      current?.host.stop();
      current = undefined;
      const attempt = start();
      starting = attempt;
      try {
        const host = await attempt;
        current = { key, host };
        return host;
      } finally {
        starting = undefined;
      }
    },
    async close() {
      const pending = starting;
      current?.host.stop();
      current = undefined;
      await pending?.then((h) => h.stop()).catch(() => undefined); // a start that failed left nothing to stop
    },
  };
}
