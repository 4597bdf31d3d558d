import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { findFreePort } from './build-test-app.ts';

/** The environment variable naming the Redis the tests use (set here; or given, to use one of your own). */
const TEST_REDIS_ENV = 'TEST_REDIS_URL';

/** The Redis of this test run (this module's setup, run by the integration projects, starts it). */
export function testRedisUrl(): string {
  const url = process.env[TEST_REDIS_ENV];
  if (!url) throw new Error(`${TEST_REDIS_ENV} is unset: run under vitest's integration projects, whose setup starts a Redis`);
  return url;
}

const answers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => socket.end(() => resolve(true)));
    socket.once('error', () => resolve(false));
  });

/**
 * A Redis of the run's own (Debian's redis-server, which npm test installs), on a free port, keeping
 * nothing on disk: the Redis adapters' tests share no keys with anything else on the machine and
 * leave nothing behind. TEST_REDIS_URL, when set, names one to use instead.
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env[TEST_REDIS_ENV]) return undefined;
  const port = await findFreePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-test-redis-'));
  // redis-server is no Node process to preload exit-with-parent.mjs into: setpriv (util-linux, in
  // every Debian) has the kernel send it SIGTERM when this process dies, even killed outright with
  // no teardown run, so it never outlives the run.
  const child = spawn(
    'setpriv',
    ['--pdeathsig', 'SIGTERM', '--', 'redis-server', '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: 'ignore' },
  );
  let gone = false;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      gone = true;
      resolve();
    }),
  );
  child.once('error', (error) => {
    throw new Error(`setpriv could not start redis-server: ${error.message}`);
  });
  for (let i = 0; i < 200 && !gone && !(await answers(port)); i++) await sleep(25);
  if (gone) throw new Error(`redis-server could not start (npm test installs it from Debian's packages): it exited with ${child.exitCode}`);
  if (!(await answers(port))) throw new Error(`redis-server did not answer on port ${port}`);
  process.env[TEST_REDIS_ENV] = `redis://127.0.0.1:${port}`;
  return async () => {
    child.kill('SIGTERM');
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
