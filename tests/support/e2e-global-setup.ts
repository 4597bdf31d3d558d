import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { findFreePort } from './build-test-app.ts';
import { spawnServer } from './spawn-server.ts';

export type E2eServer = { baseUrl: string; dataDir: string };

declare module 'vitest' {
  export interface ProvidedContext {
    /** One server per worker (e2eServer() in browser.ts picks this worker's). */
    e2eServers: E2eServer[];
    /** The first server, for files that read it directly. */
    baseUrl: string;
    dataDir: string;
  }
}

/**
 * Starts the BUILT server (dist/, as `npm start` runs it) on a free port with its own data directory
 * and SQLite database, once for each worker of the browser tests: files running side by side then
 * never wait on each other's transcription jobs. `npm test` builds first.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!fs.existsSync('dist/server/main.js') || !fs.existsSync('dist/web/index.html')) {
    throw new Error('Browser tests need the built app: run `npm run build` (npm test does it for you).');
  }
  const workers = Math.max(1, Number(project.config.maxWorkers) || 1);
  const started = await Promise.all(
    Array.from({ length: workers }, async () => {
      const port = await findFreePort();
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-e2e-'));
      // Browser tests sign up many accounts from one IP in a few minutes: spawnServer turns rate limits off.
      // Chat webhooks are posted to receivers the tests run on loopback.
      const server = await spawnServer({ port, dataDir, env: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' } });
      return { server, baseUrl: server.baseUrl, dataDir };
    }),
  );
  project.provide(
    'e2eServers',
    started.map(({ baseUrl, dataDir }) => ({ baseUrl, dataDir })),
  );
  project.provide('baseUrl', started[0]!.baseUrl);
  project.provide('dataDir', started[0]!.dataDir);
  return async () => {
    for (const { server, dataDir } of started) {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  };
}
