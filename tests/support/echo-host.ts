/**
 * A host process for testing lib/child-host: it answers with a digest of the bytes it was given,
 * works in slices (checking for cancellation between them), fails, or dies with last words on
 * stderr, as each request asks.
 */
import crypto from 'node:crypto';
import { serveHost } from '#server/lib/child-host/serve-host.ts';

export type EchoConfig = { failLoad?: string };
export type EchoInput = Uint8Array | { fail: string } | { die: string } | { slowMs: number } | { busyMs: number };
export type EchoOutput = { bytes: number; sha256: string } | { sliced: number };

serveHost<EchoConfig, { pid: number }, EchoInput, EchoOutput>({
  load(config) {
    if (config.failLoad) throw new Error(config.failLoad);
    return { pid: process.pid };
  },
  async run(input, { signal, progress }) {
    if (input instanceof Uint8Array) return { bytes: input.byteLength, sha256: crypto.createHash('sha256').update(input).digest('hex') };
    if ('fail' in input) throw new Error(input.fail);
    if ('busyMs' in input) {
      // Work that never yields (a long synchronous computation): the event loop is blocked throughout.
      for (const end = Date.now() + input.busyMs; Date.now() < end;) crypto.createHash('sha256').update('busy').digest();
      return { sliced: 0 };
    }
    if ('die' in input) {
      process.stderr.write(`${input.die}\n`);
      process.exit(3);
    }
    let sliced = 0;
    for (const end = Date.now() + input.slowMs; Date.now() < end; sliced++) {
      signal.throwIfAborted();
      progress(sliced / 100);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return { sliced };
  },
});
