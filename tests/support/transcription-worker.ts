/**
 * A transcription worker process (ROLE=worker) on a test database and data directory, whose speech
 * engine never finishes: it prints "transcribing" when a job reaches the engine, so a test can
 * kill -9 it mid-job, as a crash would. WORKER_ENGINE=fake gives it the fake engine that answers at
 * once instead (tests of the worker's memory, read from /proc/<pid>/status).
 */
import { z } from 'zod';
import { loadConfig } from '#server/config.ts';
import { createDeps } from '#server/deps.ts';
import { createSpeakerIdentifier } from '#server/features/transcription/speakers/identify-speakers.ts';
import { createFakeSpeakerIdentifier, createFakeSpeechEngine, createStallingSpeechEngine } from './fake-speech.ts';
import { TEST_JOB_TIMINGS } from './test-job-timings.ts';
import { openWorkerDatabase } from './worker-database.ts';

const env = z
  .object({
    DATA_DIR: z.string(),
    TRANSCRIBE_MAX_ATTEMPTS: z.string(),
    TRANSCRIBE_RETRY_DELAY_SECONDS: z.string(),
    MAX_RECORDING_HOURS: z.string().optional(),
    WORKER_ENGINE: z.enum(['stalling', 'fake']).default('stalling'),
    /** `clustering`: speakers told apart as the server does (its clustering host process), not by the fake. */
    WORKER_SPEAKERS: z.enum(['fake', 'clustering']).default('fake'),
  })
  .parse(process.env);
const database = openWorkerDatabase();
const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  DATA_DIR: env.DATA_DIR,
  TRANSCRIBE_MAX_ATTEMPTS: env.TRANSCRIBE_MAX_ATTEMPTS,
  TRANSCRIBE_RETRY_DELAY_SECONDS: env.TRANSCRIBE_RETRY_DELAY_SECONDS,
  MAX_RECORDING_HOURS: env.MAX_RECORDING_HOURS,
});
const engine = env.WORKER_ENGINE === 'fake' ? createFakeSpeechEngine() : createStallingSpeechEngine(() => console.log('transcribing'));
const deps = await createDeps(config, {
  database,
  role: 'worker',
  speech: { engine, speakers: env.WORKER_SPEAKERS === 'clustering' ? createSpeakerIdentifier({ method: 'clustering' }) : createFakeSpeakerIdentifier() },
  jobTimings: { ...TEST_JOB_TIMINGS, leaseMs: 1_000, pollMs: 100 },
});
await deps.start();
console.log('ready');
