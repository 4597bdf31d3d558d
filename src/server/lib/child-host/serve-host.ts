import type { HostReply, HostRequest } from './protocol.ts';

/**
 * The host process's side (see host-client.ts): answers the server's messages with these handlers.
 * Requests run one at a time in arrival order (a loaded model is not shared between concurrent
 * runs); a cancelled request aborts its signal, or is skipped if it has not started. The host
 * exits when the server closes the channel, whether it stopped or let this host go.
 */
export type HostHandlers<Config, Loaded, Input, Output> = {
  load(config: Config): Promise<Loaded> | Loaded;
  run(input: Input, job: { signal: AbortSignal; progress(fraction: number): void }): Promise<Output> | Output;
};

export function serveHost<Config, Loaded, Input, Output>(handlers: HostHandlers<Config, Loaded, Input, Output>): void {
  let loaded = false;
  const aborts = new Map<number, AbortController>();
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

  const run = async (id: number, input: Input, abort: AbortController) => {
    try {
      if (!loaded) throw new Error('nothing is loaded');
      abort.signal.throwIfAborted();
      const output = await handlers.run(input, { signal: abort.signal, progress: (fraction) => send({ type: 'progress', id, fraction }) });
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
      case 'run': {
        const abort = new AbortController();
        aborts.set(request.id, abort);
        queue = queue.then(() => run(request.id, request.input, abort));
        break;
      }
      case 'cancel':
        aborts.get(request.id)?.abort();
        break;
    }
  });
  process.on('disconnect', () => process.exit(0));
}
