import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findFreePort } from '#tests/support/build-test-app.ts';

export type BenchServer = { baseUrl: string; dataDir: string; process: ChildProcess; stop: () => Promise<void> };

/** `startupTimeoutMs`: how long to wait for /healthz (30 s; longer where a start migrates a large database). */
type StartOptions = { dataDir?: string; env?: Record<string, string>; startupTimeoutMs?: number };

/** Starts the built server (dist/) the way `npm start` does, on a free port with its own data. */
export async function startServer(options: StartOptions = {}): Promise<BenchServer & { startupMs: number }> {
  const port = await findFreePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-'));
  const started = performance.now();
  // The V8 flags `npm start` gives the server (scripts/start.mjs).
  const child = spawn(process.execPath, ['--max-semi-space-size=16', 'dist/server/main.js'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      // Figures of the engine configured here, not of models fetched in the background mid-run.
      PARLEY_AUTO_MODELS: 'false',
      ...options.env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitUntilHealthy(baseUrl, child, options.startupTimeoutMs ?? 30_000);
  const startupMs = performance.now() - started;
  return {
    baseUrl,
    dataDir,
    process: child,
    startupMs,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    },
  };
}

async function waitUntilHealthy(baseUrl: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    // A signal (a kill, the OOM killer) leaves exitCode null and sets signalCode.
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited with ${child.exitCode ?? child.signalCode}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  child.kill('SIGTERM');
  throw new Error(`server did not become healthy within ${timeoutMs / 1000} s`);
}
