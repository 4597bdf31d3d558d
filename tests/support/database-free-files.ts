/**
 * Integration files that never open a database: the speech engines, speaker models and model
 * downloads on their own, the child-process hosts and ffmpeg's windows. They run in the `integration`
 * project only (vitest.config.ts): in `integration-postgres` they would run the same code to the same
 * result a second time. `createTestDatabase` (test-database.ts)
 * fails in a file listed here, so a file that starts to use a database has to leave the list, and
 * then runs on PostgreSQL too.
 */
export const DATABASE_FREE_FILES: readonly string[] = [
  'src/server/features/transcription/engines/pocketsphinx.int.test.ts',
  'src/server/features/transcription/models/model-download.int.test.ts',
  'src/server/features/transcription/models/silero-vad.int.test.ts',
  'src/server/features/transcription/speakers/flite-meeting.int.test.ts',
  'src/server/features/transcription/speakers/identify-speakers.int.test.ts',
  'src/server/features/transcription/speakers/long-meeting.int.test.ts',
  'src/server/features/transcription/speakers/sherpa-diarization.int.test.ts',
  'src/server/lib/child-host/host-client.int.test.ts',
  'src/server/lib/child-host/host-pool.int.test.ts',
  'src/server/lib/ffmpeg-windows.int.test.ts',
  'src/server/lib/rate-limit-redis.int.test.ts',
  'src/server/lib/outbound/outbound-fetch.int.test.ts',
  'src/server/features/teams-sync/microsoft-graph.int.test.ts',
];
