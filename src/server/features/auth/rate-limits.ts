import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { errors } from './gotrue-error.ts';

/**
 * Request limits per client IP (GoTrue's defaults, auth-contract §6) and per email address (ours:
 * against password guessing and code guessing spread over many IPs), plus the installation-wide
 * email budget. In memory: one process holds them; a multi-process deployment would move these
 * limiters onto Redis or PostgreSQL, which rate-limiter-flexible supports with the same calls.
 */
const BUCKETS = {
  /** /token, all grants: 150 per 5 minutes. */
  token: { points: 150, duration: 300 },
  /** /signup, /recover, /resend, /otp, PUT /user: 30 per 5 minutes. */
  otp: { points: 30, duration: 300 },
  /** /verify: 30 per 5 minutes. */
  verify: { points: 30, duration: 300 },
  /** MFA challenge and verify: 15 per minute. */
  mfa: { points: 15, duration: 60 },
  /** Password sign-ins for one email address: 20 per 15 minutes. */
  signInPerEmail: { points: 20, duration: 900 },
  /** Sign-ups, recoveries, magic links and resends for one email address: 10 per hour. */
  emailRequestsPerEmail: { points: 10, duration: 3600 },
  /** Code checks for one email address: 10 per 15 minutes (a 6-digit code has a million values). */
  verifyPerEmail: { points: 10, duration: 900 },
} as const;

export type Bucket = keyof typeof BUCKETS;

export type RateLimits = {
  consume: (bucket: Bucket, key: string) => Promise<void>;
  consumeEmailBudget: () => Promise<void>;
};

export function createRateLimits(options: { enabled: boolean; emailsPerHour: number }): RateLimits {
  const limiters = Object.fromEntries(
    Object.entries(BUCKETS).map(([name, b]) => [name, new RateLimiterMemory({ keyPrefix: name, points: b.points, duration: b.duration })]),
  ) as Record<Bucket, RateLimiterMemory>;
  const emailBudget = new RateLimiterMemory({ keyPrefix: 'email', points: options.emailsPerHour, duration: 3600 });
  return {
    consume: async (bucket, key) => {
      if (!options.enabled) return;
      try {
        await limiters[bucket].consume(key);
      } catch (error) {
        if (error instanceof RateLimiterRes) throw errors.overRequestRateLimit();
        throw error;
      }
    },
    consumeEmailBudget: async () => {
      try {
        await emailBudget.consume('installation');
      } catch (error) {
        if (error instanceof RateLimiterRes) throw errors.emailBudget();
        throw error;
      }
    },
  };
}
