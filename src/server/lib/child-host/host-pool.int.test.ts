import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { EchoConfig, EchoInput, EchoOutput } from '#tests/support/echo-host.ts';
import { startHost, TYPESCRIPT_EXEC_ARGV, type Host } from './host-client.ts';
import { createHostPool, type HostPool } from './host-pool.ts';

const entry = { file: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../tests/support/echo-host.ts'), execArgv: [...TYPESCRIPT_EXEC_ARGV] };
type EchoHost = Host<{ pid: number }, EchoInput, EchoOutput>;

const pools: HostPool<EchoInput, EchoOutput>[] = [];
afterEach(async () => Promise.all(pools.splice(0).map((pool) => pool.close())));

/** A pool of echo hosts that remembers each host it started. */
function echoPool(size: number) {
  const started: EchoHost[] = [];
  const pool = createHostPool<EchoInput, EchoOutput>({
    size,
    start: async () => {
      const host = await startHost<EchoConfig, { pid: number }, EchoInput, EchoOutput>({
        entry,
        config: {},
        abort: 'message',
        idleMs: 60_000,
        loadTimeoutMs: 30_000,
        words: { stopped: 'the echo host stopped', failed: 'the echo host failed', cancelled: 'The echo was cancelled.' },
      });
      started.push(host);
      return host;
    },
  });
  pools.push(pool);
  return { pool, started };
}

describe('a host pool', () => {
  it('runs requests that come at once in separate hosts, up to its size, then queues them on the least busy', { timeout: 60_000 }, async () => {
    const { pool, started } = echoPool(2);
    const answers = await Promise.all([pool.run({ slowMs: 300 }), pool.run({ slowMs: 300 }), pool.run({ slowMs: 300 })]);
    expect(answers).toEqual([{ sliced: expect.any(Number) }, { sliced: expect.any(Number) }, { sliced: expect.any(Number) }]);
    expect(started).toHaveLength(2);
    expect(new Set(started.map((host) => host.loaded.pid)).size).toBe(2);
    // Idle again, one request at a time reuses a running host.
    await pool.run(new Uint8Array([1]));
    await pool.run(new Uint8Array([2]));
    expect(started).toHaveLength(2);
  });

  it('passes a request’s failure to its caller, replaces a host that died, and close ends them all', { timeout: 60_000 }, async () => {
    const { pool, started } = echoPool(1);
    await expect(pool.run({ fail: 'bad input' })).rejects.toThrow('the echo host failed: bad input');
    await expect(pool.run({ die: 'out of memory' })).rejects.toThrow('the echo host stopped: out of memory');
    expect(started[0]?.alive()).toBe(false);
    expect(await pool.run(new Uint8Array(3))).toMatchObject({ bytes: 3 });
    expect(started).toHaveLength(2);
    await pool.close();
    expect(started.map((host) => host.alive())).toEqual([false, false]);
  });
});
