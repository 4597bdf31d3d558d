import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '#server/config.ts';
import type { Db } from '#server/db/create-db.ts';
import type { EventRecorder } from '#server/events/domain-events.ts';
import type { Clock } from '#server/lib/clock.ts';
import type { SessionsEnded } from '#server/lib/realtime/realtime-hub.ts';
import type { SecretBox } from '#server/lib/secret-box.ts';
import type { Mailer } from './mailer.ts';
import type { RateLimits } from './rate-limits.ts';
import type { UserRow } from './auth.table.ts';
import type { SigningKeys } from './signing-keys.ts';
import { createEmailUser } from './users.ts';

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
  /** Records `account.created` with the new account; other features act on it off the request (its sample meetings). */
  events: EventRecorder;
  /**
   * Sessions were ended (sign-out, refresh-token reuse, new password, MFA): the sockets opened with
   * their tokens close (the realtime hub, in every process). Called after the rows are gone.
   */
  onSessionsEnded: (ended: SessionsEnded) => void;
};

/** Creates an account with its email identity and, in the same transaction, its `account.created` event. */
export async function createAccount(ctx: AuthContext, input: Parameters<typeof createEmailUser>[1]): Promise<UserRow> {
  return ctx.events.transaction(async (trx, raise) => {
    const user = await createEmailUser(trx, input);
    raise({ type: 'account.created', actorId: user.id, ownerId: user.id, teamId: null, subject: { type: 'user', id: user.id }, payload: {} });
    return user;
  });
}
