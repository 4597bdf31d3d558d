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
  'src/server/features/transcription/speakers/voice-embedding-paths.int.test.ts',
  'src/server/lib/child-host/host-client.int.test.ts',
  'src/server/lib/child-host/host-pool.int.test.ts',
  'src/server/lib/ffmpeg-windows.int.test.ts',
  'src/server/lib/rate-limit-redis.int.test.ts',
  'src/server/lib/upload-locks.int.test.ts',
  'src/server/lib/outbound/outbound-fetch.int.test.ts',
  'src/server/features/teams-sync/microsoft-graph.int.test.ts',
];

/**
 * Files that use a database only to carry a meeting through the speech engines, whose cost (minutes
 * of audio decoded, recognised and clustered) is the engines' and whose assertions (memory, windows,
 * speaker counts) are too: they run on SQLite only, like the files above. The job queue's and the
 * repositories' PostgreSQL paths through transcription are run by transcription-jobs and job-lifecycle.
 */
export const ENGINE_BOUND_FILES: readonly string[] = [
  'src/server/features/transcription/recording-limits.int.test.ts',
  'src/server/features/transcription/speakers/over-split.int.test.ts',
  'src/server/features/transcription/audio-sources.int.test.ts',
];
