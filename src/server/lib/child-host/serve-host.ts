import { Worker } from 'node:worker_threads';
import type { HostReply, HostRequest } from './protocol.ts';

/**
 * The host process's side (see host-client.ts): answers the server's messages with these handlers.
 * Requests run one at a time in arrival order (a loaded model is not shared between concurrent
 * runs); a cancelled request aborts its signal, or is skipped if it has not started. The host
 * exits when the server closes the channel, whether it stopped or let this host go.
 */
export type HostHandlers<Config, Loaded, Input, Output> = {
  load(config: Config): Promise<Loaded> | Loaded;
  run(input: Input, job: { signal: AbortSignal; progress(fraction: number): void; context: unknown }): Promise<Output> | Output;
};

/**
 * Ends this host when the server that forked it is gone, even while a handler blocks the event loop
 * (a long synchronous computation never hears 'disconnect'): a thread of its own looks every second
 * whether the parent is still this process's parent, and kills the process when it is not.
 */
function dieWithParent(): void {
  const parent = process.ppid;
  const watch = new Worker(
    `const { workerData } = require('node:worker_threads');
     setInterval(() => { if (process.ppid !== workerData.parent) process.kill(process.pid, 'SIGKILL'); }, 1000);`,
    { eval: true, workerData: { parent } },
  );
  watch.unref();
}

export function serveHost<Config, Loaded, Input, Output>(handlers: HostHandlers<Config, Loaded, Input, Output>): void {
  dieWithParent();
  let loaded = false;
  const aborts = new Map<number, AbortController>();
  const parts = new Map<number, Uint8Array[]>();
  let lastRun = 0;
  let queue: Promise<void> = Promise.resolve();
  const send = (reply: HostReply<Loaded, Output>) => process.send?.(reply);
  const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0]!;

  const load = async (config: Config) => {
    try {
      const info = await handlers.load(config);
      loaded = true;
      send({ type: 'loaded', info });
    } catch (error) {
      send({ type: 'load-failed', message: messageOf(error) });
    }
  };

  const run = async (id: number, input: Input, abort: AbortController, context: unknown) => {
    try {
      if (!loaded) throw new Error('nothing is loaded');
      abort.signal.throwIfAborted();
      const output = await handlers.run(input, { signal: abort.signal, progress: (fraction) => send({ type: 'progress', id, fraction }), context });
      send({ type: 'result', id, output });
    } catch (error) {
      send({ type: 'failed', id, message: messageOf(error), cancelled: abort.signal.aborted });
    } finally {
      aborts.delete(id);
    }
  };

  process.on('message', (request: HostRequest<Config, Input>) => {
    switch (request.type) {
      case 'load':
        queue = queue.then(() => load(request.config));
        break;
      case 'part': {
        const received = parts.get(request.id) ?? [];
        received.push(request.bytes);
        parts.set(request.id, received);
        break;
      }
      case 'run': {
        lastRun = request.id;
        // A cancellation may have come first (while the parts were on their way): run() then answers it.
        const abort = aborts.get(request.id) ?? new AbortController();
        aborts.set(request.id, abort);
        // Sent in parts: the input is their bytes, joined (a Buffer, a Uint8Array as it left the server).
        const input = request.input ?? (Buffer.concat(parts.get(request.id) ?? []) as Uint8Array as Input);
        parts.delete(request.id);
        const context = request.context;
        queue = queue.then(() => run(request.id, input, abort, context));
        break;
      }
      case 'cancel': {
        parts.delete(request.id);
        // Ids rise with each request: one at or below the last run that is not pending has finished.
        if (!aborts.has(request.id) && request.id <= lastRun) break;
        const abort = aborts.get(request.id) ?? new AbortController();
        aborts.set(request.id, abort);
        abort.abort();
        break;
      }
    }
  });
  process.on('disconnect', () => process.exit(0));
}
