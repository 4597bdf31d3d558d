import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { EchoConfig, EchoInput, EchoOutput } from '#tests/support/echo-host.ts';
import { watchEventLoop } from '#tests/support/event-loop-watch.ts';
import { startTestWorker, WORKER_START_MS } from '#tests/support/test-worker.ts';
import { createHostSlot, startHost, TYPESCRIPT_EXEC_ARGV, type Host, type HostOptions } from './host-client.ts';

const entry = { file: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../tests/support/echo-host.ts'), execArgv: [...TYPESCRIPT_EXEC_ARGV] };
type EchoHost = Host<{ pid: number }, EchoInput, EchoOutput>;
const words = { stopped: 'the echo host stopped', failed: 'the echo host failed', cancelled: 'The echo was cancelled.' };
const started: EchoHost[] = [];
const start = async (options: Partial<HostOptions<EchoConfig>> = {}) => {
  const host = await startHost<EchoConfig, { pid: number }, EchoInput, EchoOutput>({
    entry,
    config: {},
    abort: 'message',
    idleMs: 60_000,
    loadTimeoutMs: 30_000,
    words,
    ...options,
  });
  started.push(host);
  return host;
};
afterEach(() => started.splice(0).forEach((host) => host.stop()));

describe('a host process', () => {
  it('loads in its own process and gets large byte inputs whole, sent in parts without holding up this event loop', { timeout: 30_000 }, async () => {
    const host = await start();
    expect(host.loaded.pid).not.toBe(process.pid);
    const bytes = crypto.randomBytes(40 * 1024 * 1024 + 123); // 41 parts, the last one short
    const loop = watchEventLoop(2);
    const started = performance.now();
    const answer = await host.run(bytes);
    const elapsed = performance.now() - started;
    const longestGap = loop.stop();
    expect(answer).toEqual({ bytes: bytes.byteLength, sha256: crypto.createHash('sha256').update(bytes).digest('hex') });
    // Sent as one message, serialising 40 MiB would be most of the run in one gap; in parts the loop
    // turns between them. The absolute figure is `npm run bench`'s (the transcription bench's gap).
    expect(longestGap).toBeLessThan(elapsed / 2);
    expect(await host.run(new Uint8Array([1, 2, 3]))).toEqual({
      bytes: 3,
      sha256: crypto
        .createHash('sha256')
        .update(Buffer.from([1, 2, 3]))
        .digest('hex'),
    });
  });

  it('reports progress, and a cancelled request answers "cancelled" while the host lives on', { timeout: 30_000 }, async () => {
    const host = await start();
    const fractions: number[] = [];
    const abort = new AbortController();
    const slow = host.run({ slowMs: 10_000 }, { signal: abort.signal, onProgress: (f) => fractions.push(f) });
    await expect.poll(() => fractions.length).toBeGreaterThan(3);
    abort.abort();
    await expect(slow).rejects.toThrow(new DOMException('The echo was cancelled.', 'AbortError'));
    expect(host.alive()).toBe(true);
    expect(await host.run({ slowMs: 50 })).toMatchObject({ sliced: expect.any(Number) });
  });

  it('a request cancelled while its parts are on their way is answered "cancelled"; the next one is whole', { timeout: 30_000 }, async () => {
    const host = await start();
    const abort = new AbortController();
    const bytes = crypto.randomBytes(64 * 1024 * 1024);
    const pending = host.run(bytes, { signal: abort.signal });
    setImmediate(() => abort.abort());
    await expect(pending).rejects.toThrow('The echo was cancelled.');
    expect(await host.run(bytes.subarray(0, 2 * 1024 * 1024 + 1))).toMatchObject({ bytes: 2 * 1024 * 1024 + 1 });
  });

  it('with abort "kill", a cancellation ends the host at once', { timeout: 30_000 }, async () => {
    const host = await start({ abort: 'kill' });
    const abort = new AbortController();
    const slow = host.run({ slowMs: 10_000 }, { signal: abort.signal });
    setTimeout(() => abort.abort(), 100);
    await expect(slow).rejects.toThrow('The echo was cancelled.');
    expect(host.alive()).toBe(false);
  });

  it('says why: a load that fails, a request that fails, a host that dies', { timeout: 30_000 }, async () => {
    await expect(start({ config: { failLoad: 'no such model' } })).rejects.toThrow('no such model');
    const host = await start();
    await expect(host.run({ fail: 'bad audio' })).rejects.toThrow('the echo host failed: bad audio');
    await expect(host.run({ die: "/src/x.cc:Init:12 'vocab_size' does not exist" })).rejects.toThrow("the echo host stopped: 'vocab_size' does not exist");
    expect(host.alive()).toBe(false);
    await expect(host.run(new Uint8Array(1))).rejects.toThrow('the echo host stopped');
  });

  it('is let go when idle', { timeout: 30_000 }, async () => {
    const host = await start({ idleMs: 200 });
    await host.run(new Uint8Array(1));
    await expect.poll(() => host.alive(), { timeout: 5_000 }).toBe(false);
  });
});

describe('a host slot', () => {
  it('gives callers asking at once one host, and a new one for a new key', { timeout: 30_000 }, async () => {
    const slot = createHostSlot<EchoHost>();
    let starts = 0;
    const get = (key: string) =>
      slot.get(key, () => {
        starts++;
        return start();
      });
    const [a, b] = await Promise.all([get('model@1'), get('model@1')]);
    expect(a).toBe(b);
    expect(starts).toBe(1);
    const c = await get('model@2');
    expect(starts).toBe(2);
    expect(a.alive()).toBe(false);
    expect(c.alive()).toBe(true);
    await slot.close();
    expect(c.alive()).toBe(false);
  });
});

describe('a host whose server was killed', () => {
  it('ends within seconds even while its work blocks its event loop', { timeout: WORKER_START_MS + 30_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-host-parent-'));
    const pidFile = path.join(dir, 'host.pid');
    try {
      const parent = await startTestWorker('tests/support/host-parent.ts', { HOST_PID_FILE: pidFile });
      const hostPid = Number(fs.readFileSync(pidFile, 'utf8'));
      const alive = () => {
        try {
          process.kill(hostPid, 0);
          return true;
        } catch {
          return false;
        }
      };
      expect(alive()).toBe(true);
      await parent.kill();
      await expect.poll(alive, { timeout: 10_000, interval: 100 }).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
