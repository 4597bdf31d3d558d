import { RateLimitStoreDown, type RateLimiter, type RateLimiters } from '#server/lib/rate-limit.ts';
import { errors } from './gotrue-error.ts';

/**
 * Request limits per client IP (GoTrue's defaults, auth-contract §6) and per email address (ours:
 * against code guessing spread over many IPs), the password sign-in guard (below), and the
 * installation-wide email budget. The limiters come from the server's one rate-limit port
 * (lib/rate-limit.ts), which decides where their counts live.
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
  /** Sign-ups, recoveries, magic links and resends for one email address: 10 per hour. */
  emailRequestsPerEmail: { points: 10, duration: 3600 },
  /** Code checks for one email address: 10 per 15 minutes (a 6-digit code has a million values). */
  verifyPerEmail: { points: 10, duration: 900 },
} as const;

export type Bucket = keyof typeof BUCKETS;

/**
 * Failed password sign-ins (OWASP's guidance and rate-limiter-flexible's login-protection recipe).
 * Only failures count, and no count that other addresses can raise ever blocks an account: an
 * attacker spread over many IPs cannot lock the owner out, whose correct password from a new
 * address still signs in. Blocked: one (email, IP) pair after 10 failures in a row (until a success
 * or 15 minutes), and one IP after 100 failures an hour over any emails. Slowed: every attempt on
 * an email that failed more than 5 times in 15 minutes, from anywhere, waits 250 ms more per
 * failure, at most 3 s, before the password is checked. The blocks are fail-closed: while their
 * shared store (Redis) cannot be reached, password sign-ins are refused as over the limit, since a
 * count started again from nothing would let a blocked guesser through.
 */
export const SIGN_IN_LIMITS = {
  failuresPerEmailAndIp: { points: 10, duration: 900 },
  failuresPerIp: { points: 100, duration: 3600 },
  slowdown: { freeFailures: 5, stepMs: 250, maxMs: 3000, duration: 900 },
} as const;

export type SignInGuard = {
  /** Before the password is checked: 429 when this IP or this (email, IP) pair is blocked, else waits the email's slowdown. */
  before: (email: string, ip: string) => Promise<void>;
  failed: (email: string, ip: string) => Promise<void>;
  /** A success clears the pair's failures (the email's slowdown and the IP's count run out on their own). */
  succeeded: (email: string, ip: string) => Promise<void>;
};

export type RateLimits = {
  consume: (bucket: Bucket, key: string) => Promise<void>;
  consumeEmailBudget: () => Promise<void>;
  signIn: SignInGuard;
};

type RateLimitsOptions = {
  limiters: RateLimiters;
  enabled: boolean;
  emailsPerHour: number;
  /** How the slowdown waits (tests record it instead). */
  sleep?: (ms: number) => Promise<void>;
};

export function createRateLimits(options: RateLimitsOptions): RateLimits {
  const limiters = Object.fromEntries(
    Object.entries(BUCKETS).map(([name, b]) => [name, options.limiters.limiter({ keyPrefix: name, points: b.points, duration: b.duration })]),
  ) as Record<Bucket, RateLimiter>;
  const emailBudget = options.limiters.limiter({ keyPrefix: 'email', points: options.emailsPerHour, duration: 3600 });
  return {
    consume: async (bucket, key) => {
      if (!options.enabled) return;
      if (!(await limiters[bucket].consume(key)).allowed) throw errors.overRequestRateLimit();
    },
    signIn: createSignInGuard(options),
    consumeEmailBudget: async () => {
      if (!(await emailBudget.consume('installation')).allowed) throw errors.emailBudget();
    },
  };
}

/** The delay before checking a password for an email that has failed `failures` times lately. */
export function signInDelayMs(failures: number): number {
  const { freeFailures, stepMs, maxMs } = SIGN_IN_LIMITS.slowdown;
  return Math.min(Math.max(0, failures - freeFailures) * stepMs, maxMs);
}

function createSignInGuard(options: RateLimitsOptions): SignInGuard {
  const { failuresPerEmailAndIp, failuresPerIp, slowdown } = SIGN_IN_LIMITS;
  const byPair = options.limiters.limiter({ keyPrefix: 'signInPair', ...failuresPerEmailAndIp, failClosed: true });
  const byIp = options.limiters.limiter({ keyPrefix: 'signInIp', ...failuresPerIp, failClosed: true });
  /** A block's count that cannot be read or written refuses the attempt, as a block would. */
  const closed = async <T>(work: Promise<T>): Promise<T> => {
    try {
      return await work;
    } catch (error) {
      if (error instanceof RateLimitStoreDown) throw errors.overRequestRateLimit();
      throw error;
    }
  };
  // Counted only to slow down: its points are never used up.
  const byEmail = options.limiters.limiter({ keyPrefix: 'signInEmail', points: Number.MAX_SAFE_INTEGER, duration: slowdown.duration });
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const pairKey = (email: string, ip: string) => `${email}\0${ip}`;
  const used = async (limiter: RateLimiter, key: string) => (await limiter.get(key))?.consumedPoints ?? 0;

  return {
    before: async (email, ip) => {
      if (!options.enabled) return;
      const [pair, address, emailFailures] = await closed(Promise.all([used(byPair, pairKey(email, ip)), used(byIp, ip), used(byEmail, email)]));
      if (pair >= failuresPerEmailAndIp.points || address >= failuresPerIp.points) throw errors.overRequestRateLimit();
      const delay = signInDelayMs(emailFailures);
      if (delay > 0) await sleep(delay);
    },
    failed: async (email, ip) => {
      if (!options.enabled) return;
      // Counted, never refused here (but when the count cannot be kept): before() decides what the counts block.
      await closed(Promise.all([byPair.penalty(pairKey(email, ip)), byIp.penalty(ip), byEmail.penalty(email)]));
    },
    succeeded: async (email, ip) => {
      if (!options.enabled) return;
      await closed(byPair.delete(pairKey(email, ip)));
    },
  };
}
