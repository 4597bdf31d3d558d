import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Preloaded into every Node process a test starts: it ends the process once the test process that
 * started it is gone, even when that was killed outright (SIGKILL) and ran no cleanup.
 */
export const EXIT_WITH_PARENT = fileURLToPath(new URL('./exit-with-parent.mjs', import.meta.url));

/**
 * Runs the BUILT server (dist/, as `npm start` runs it) as a child process, for browser tests that
 * need a server of their own (e.g. to stop and restart it).
 */
export type SpawnedServer = { baseUrl: string; process: ChildProcess; stop: (signal?: NodeJS.Signals) => Promise<void> };

export async function spawnServer(options: {
  port: number;
  dataDir: string;
  env?: Record<string, string>;
  /** A command the server runs under (e.g. `unshare …`): it is given node and its arguments to exec. */
  wrapper?: string[];
}): Promise<SpawnedServer> {
  const baseUrl = `http://127.0.0.1:${options.port}`;
  // The V8 flags `npm start` gives the server (scripts/start.mjs).
  const [command, ...args] = [...(options.wrapper ?? []), process.execPath, '--max-semi-space-size=16', '--import', EXIT_WITH_PARENT, 'dist/server/main.js'];
  const child = spawn(command!, args, {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(options.port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATA_DIR: options.dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMITS: 'false',
      // A production-mode server would fetch the recommended speech models at first start.
      PARLEY_AUTO_MODELS: 'false',
      // Integrations under test reach their stand-in services on this machine.
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
      ...options.env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    await waitForHealth(baseUrl, child);
  } catch (error) {
    // A server that never answered is stopped, or it would outlive the failed test and its run.
    child.kill('SIGKILL');
    throw error;
  }
  return {
    baseUrl,
    process: child,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill(signal);
      await exited;
    },
  };
}

/**
 * Waits for the server's health check. A server run from TypeScript source (tsx) compiles itself as it
 * starts, which on two cores shared with the rest of the suite can take longer than the built one: its
 * callers give it more time.
 */
export async function waitForHealth(baseUrl: string, child: ChildProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before it was ready`);
    try {
      const res = await fetch(`${baseUrl}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the server did not become healthy within ${timeoutMs / 1000} s`);
}
