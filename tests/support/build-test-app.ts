import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '#server/app.ts';
import { loadConfig, type Config } from '#server/config.ts';
import { createDeps, type Deps } from '#server/deps.ts';
import { createTestDatabase } from './test-database.ts';
import { TEST_JOB_TIMINGS } from './test-job-timings.ts';

export type TestApp = {
  app: FastifyInstance;
  deps: Deps;
  /** The test's own database, with where it lives (a worker process can open it too). */
  database: Awaited<ReturnType<typeof createTestDatabase>>;
  config: Config;
  /** http://127.0.0.1:<port> when listening, else the configured public URL. */
  baseUrl: string;
  close: () => Promise<void>;
};

type BuildTestAppOptions = {
  /** Environment overrides, as a deployment would set them. */
  env?: Record<string, string>;
  /** Replaces parts of the composition root (a fake speech engine, a web-only role, a clock). */
  deps?: Omit<NonNullable<Parameters<typeof createDeps>[1]>, 'database'>;
  /** Listen on a free loopback port (for real HTTP clients such as supabase-js). */
  listen?: boolean;
};

export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The real app, wired as in production, on a fresh test database (SQLite or PostgreSQL per project). */
export async function buildTestApp(options: BuildTestAppOptions = {}): Promise<TestApp> {
  const port = options.listen ? await findFreePort() : 3000;
  const baseUrl = options.listen ? `http://127.0.0.1:${port}` : 'http://localhost:3000';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-data-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    // Real argon2id at the cheapest cost: a run signs up thousands of accounts (0.1 s of CPU each at OWASP's cost).
    AUTH_PASSWORD_HASH_MEMORY_KIB: '64',
    AUTH_PASSWORD_HASH_PASSES: '1',
    PUBLIC_URL: baseUrl,
    DATA_DIR: dataDir,
    ...options.env,
  });
  const database = await createTestDatabase(undefined, { migrated: true });
  const deps = await createDeps(config, { database, jobTimings: TEST_JOB_TIMINGS, ...options.deps });
  const app = await buildApp(deps);
  depsOfApp.set(app, deps);
  if (options.listen) await app.listen({ port, host: '127.0.0.1' });
  else await app.ready();
  await deps.start();
  return {
    app,
    deps,
    database,
    config,
    baseUrl,
    close: async () => {
      await app.close();
      await deps.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A new confirmed account through the real /auth/v1/signup (the app needs AUTH_AUTOCONFIRM), for API
 * tests that need a signed-in caller: its access token, user id and email. `fullName` goes in as the
 * sign-up form's name (user metadata full_name), for tests that read it back. It answers once the
 * account's sample meetings are set up (a job, moments after the sign-up), so a test never sees them
 * arrive halfway; `samples: false` does not wait (an app whose role runs no jobs never sets them up).
 */
export async function signUpUser(
  app: FastifyInstance,
  prefix = 'user',
  options: { fullName?: string; samples?: false } = {},
): Promise<{ token: string; userId: string; email: string }> {
  const email = `${prefix}-${crypto.randomUUID()}@example.com`;
  const data = options.fullName === undefined ? {} : { data: { full_name: options.fullName } };
  const response = await app.inject({ method: 'POST', url: '/auth/v1/signup', payload: { email, password: 'secret12', ...data } });
  if (response.statusCode !== 200) throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  const body = response.json() as { access_token: string; user: { id: string } };
  if (options.samples !== false) await samplesSetUp(app, body.access_token);
  return { token: body.access_token, userId: body.user.id, email };
}

/** The composition root behind each test app, for what a failure should say about its state. */
const depsOfApp = new WeakMap<FastifyInstance, Deps>();

/** Waits, as the dashboard does, until the account's sample meetings are set up (GET /api/v1/meetings/stats). */
export async function samplesSetUp(app: FastifyInstance, token: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const stats = await app.inject({ method: 'GET', url: '/api/v1/meetings/stats', headers: { authorization: `Bearer ${token}` } });
    if (stats.statusCode !== 200) throw new Error(`GET /api/v1/meetings/stats: ${stats.statusCode} ${stats.body}`);
    if (!(stats.json() as { samplesSettingUp: boolean }).samplesSettingUp) return;
    if (Date.now() > deadline)
      throw new Error(
        `the sample meetings were not set up within 30 s: does this app run jobs (its role)? signUpUser(…, { samples: false }) does not wait. ${await samplesDelivery(app, token)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The account's sample set-up delivery as stored (its tries and last error), to tell a stalled queue from a failing set-up. */
async function samplesDelivery(app: FastifyInstance, token: string): Promise<string> {
  const deps = depsOfApp.get(app);
  const userId = (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub?: string }).sub;
  if (!deps || !userId) return '';
  const deliveries = await deps.database.db
    .selectFrom('event_deliveries')
    .select(['status', 'attempts', 'last_error', 'updated_at'])
    .where('subscriber', '=', 'samples')
    .where('subject', '=', `user:${userId}`)
    .execute();
  // No try yet: the queue never ran it; tries with an error: the set-up itself fails.
  return `Its delivery: ${JSON.stringify(deliveries)}`;
}
