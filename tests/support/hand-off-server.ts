/**
 * A whole Parley server (ROLE=all: HTTP and the job queue) on a test database and data directory,
 * mailing through a local SMTP server and writing notes with a local chat-completions server, for
 * tests that kill -9 it while a hand-off between features is under way and start it again.
 */
import { z } from 'zod';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { createDeps } from '#server/deps.ts';
import { createFakeSpeakerIdentifier, createFakeSpeechEngine } from './fake-speech.ts';
import { TEST_JOB_TIMINGS } from './test-job-timings.ts';
import { openWorkerDatabase } from './worker-database.ts';

const env = z
  .object({
    DATA_DIR: z.string(),
    PORT: z.string(),
    SMTP_PORT: z.string(),
    NOTES_LLM_URL: z.string(),
  })
  .parse(process.env);
const database = openWorkerDatabase();
const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  DATA_DIR: env.DATA_DIR,
  PORT: env.PORT,
  PUBLIC_URL: `http://127.0.0.1:${env.PORT}`,
  AUTH_AUTOCONFIRM: 'true',
  AUTH_RATE_LIMITS: 'false',
  AUTH_PASSWORD_HASH_MEMORY_KIB: '64',
  AUTH_PASSWORD_HASH_PASSES: '1',
  SMTP_HOST: '127.0.0.1',
  SMTP_PORT: env.SMTP_PORT,
  NOTES_ENGINE: 'llm',
  NOTES_LLM_URL: env.NOTES_LLM_URL,
  NOTES_LLM_MODEL: 'fake-notes-model',
  NOTES_RETRY_DELAY_SECONDS: '1',
});
const deps = await createDeps(config, {
  database,
  speech: { engine: createFakeSpeechEngine(), speakers: createFakeSpeakerIdentifier() },
  // A dead process's jobs are taken back within seconds (pg-boss's lease cannot be shorter than 10 s),
  // and run again a second later: pg-boss counts a dead run as a failed try and waits its retry delay.
  jobTimings: { ...TEST_JOB_TIMINGS, leaseMs: 1_000, pollMs: 100 },
  eventDelivery: { retryDelayMs: 1_000 },
});
const app = await buildApp(deps);
await app.listen({ port: Number(env.PORT), host: '127.0.0.1' });
await deps.start();
console.log('ready');
