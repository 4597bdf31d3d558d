import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { once } from 'node:events';
import { expect } from 'vitest';
import { TYPESCRIPT_EXEC_ARGV } from '#server/lib/child-host/host-client.ts';
import { EXIT_WITH_PARENT } from './spawn-server.ts';
import type { TestDatabaseTarget } from './test-database.ts';

const running = new Set<ChildProcess>();

/** How long a worker script may take to say it is ready; the tests that start one allow for it in their own time limit. */
export const WORKER_START_MS = 90_000;

/** The environment that points a worker script at a test database. */
export function databaseEnv(target: TestDatabaseTarget): Record<string, string> {
  return {
    WORKER_DB: target.kind,
    WORKER_DB_TARGET: target.kind === 'sqlite' ? target.file : target.url,
    ...(target.kind === 'postgres' ? { WORKER_SEARCH_PATH: target.schema } : {}),
  };
}

/**
 * A worker script (tests/support/*-worker.ts) in its own Node process, for tests that kill -9 a worker
 * mid-job as a crash or an OOM kill would. It reports by printing lines; waitFor(text) polls them.
 */
export async function startTestWorker(script: string, env: Record<string, string>) {
  const child = spawnNode([...TYPESCRIPT_EXEC_ARGV, script], env);
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.once('exit', (code, signal) => (output += `\n[exited ${code ?? signal}]`));
  // The whole output when the line never comes: the failure then shows what the worker said.
  const waitFor = (text: string, timeout = 30_000) => expect.poll(() => (output.includes(text) ? text : output), { timeout, interval: 50 }).toBe(text);
  // A cold start loads the server's modules, slow beside the speech engines and the browser.
  await waitFor('ready', WORKER_START_MS);
  return {
    waitFor,
    /** The process id, e.g. for its memory in /proc/<pid>/status. */
    pid: child.pid!,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await once(child, 'exit');
    },
  };
}

/**
 * A Node child with this process's environment plus `env` (test files under src/server may not read process.env).
 * A server it starts fetches no speech models at first start unless `env` asks for it. It runs with
 * the V8 flags `npm start` gives the server (scripts/start.mjs), so its memory is the server's.
 */
export function spawnNode(args: string[], env: Record<string, string>, stdio: StdioOptions = ['ignore', 'pipe', 'pipe']): ChildProcess {
  return spawn(process.execPath, ['--max-semi-space-size=16', '--import', EXIT_WITH_PARENT, ...args], {
    env: { ...process.env, PARLEY_AUTO_MODELS: 'false', ...env },
    stdio,
  });
}

/** Kills every worker a test left running (afterEach). */
export function killTestWorkers(): void {
  for (const child of running) child.kill('SIGKILL');
}
