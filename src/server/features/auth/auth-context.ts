import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '#server/config.ts';
import type { Db } from '#server/db/create-db.ts';
import { bestEffort } from '#server/lib/best-effort.ts';
import type { Clock } from '#server/lib/clock.ts';
import type { SessionsEnded } from '#server/lib/realtime/realtime-hub.ts';
import type { SecretBox } from '#server/lib/secret-box.ts';
import type { Mailer } from './mailer.ts';
import type { RateLimits } from './rate-limits.ts';
import type { SigningKeys } from './signing-keys.ts';

/** What every auth endpoint works with; built once per server in auth.module.ts. */
export type AuthContext = {
  db: Db;
  config: Config;
  keys: SigningKeys;
  /** Seals secrets at rest (signing keys, TOTP secrets) with the installation's key. */
  secrets: SecretBox;
  mailer: Mailer;
  limits: RateLimits;
  /** The time rules that tests move are read on (the refresh-token reuse interval). */
  clock: Clock;
  /** `<PUBLIC_URL>/auth/v1`: the JWT issuer and the base of email links. */
  issuer: string;
  log: FastifyBaseLogger;
  /** Other features' reactions to a new account (e.g. its sample meetings); failures never undo the sign-up. */
  onUserCreated: readonly ((userId: string) => Promise<void>)[];
  /**
   * Sessions were ended (sign-out, refresh-token reuse, new password, MFA): the sockets opened with
   * their tokens close (the realtime hub, in every process). Called after the rows are gone.
   */
  onSessionsEnded: (ended: SessionsEnded) => void;
};

export async function notifyUserCreated(ctx: AuthContext, userId: string): Promise<void> {
  // The account exists whatever a hook does: one that fails is logged and counted, and the next runs.
  for (const hook of ctx.onUserCreated) await bestEffort('new-account-hook', () => hook(userId), ctx.log, { userId });
}
