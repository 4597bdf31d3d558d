import crypto from 'node:crypto';
import { startS3Server, type S3ServerSettings } from '../../scripts/s3-server.ts';

/** A test's S3 server: its settings, a bucket prefix of the test's own, and how to let go of it. */
export type TestS3 = { settings: S3ServerSettings; prefix: string; release: () => Promise<void> };

/**
 * The real S3 server (Swift s3api) the S3 tests run against: the one npm test started for its run
 * (TEST_S3_* in the environment), or else one started now for this file, stopped by `release`.
 * Answers why not when the machine has no Swift and cannot install it (not root): the caller skips.
 */
export async function useTestS3(): Promise<TestS3 | { skipped: string }> {
  const prefix = `t-${crypto.randomUUID()}/`;
  const env = process.env;
  if (env.TEST_S3_ENDPOINT) {
    const settings: S3ServerSettings = {
      STORAGE_URL: `${env.TEST_STORAGE_URL ?? 's3://parley-test'}`,
      S3_ENDPOINT: env.TEST_S3_ENDPOINT,
      S3_REGION: env.TEST_S3_REGION ?? 'us-east-1',
      S3_ACCESS_KEY_ID: env.TEST_S3_ACCESS_KEY_ID ?? '',
      S3_SECRET_ACCESS_KEY: env.TEST_S3_SECRET_ACCESS_KEY ?? '',
      S3_FORCE_PATH_STYLE: env.TEST_S3_FORCE_PATH_STYLE ?? 'true',
    };
    return { settings, prefix, release: async () => {} };
  }
  const server = await startS3Server({ log: () => {} });
  if ('skipped' in server) {
    console.warn(`S3 tests skipped: ${server.skipped}`);
    return server;
  }
  return { settings: server.settings, prefix, release: server.stop };
}
