import type { Db } from '#server/db/create-db.ts';
import { AppError } from '#server/lib/app-error.ts';
import type { AuthContext } from './auth-context.ts';
import type { UserRow } from './auth.table.ts';
import { GoTrueError } from './gotrue-error.ts';
import { verifyPassword } from './passwords.ts';
import { findSession } from './sessions.repository.ts';
import { endSessions } from './sessions.ts';
import { claimFirstVisit, deleteUserRow, findUserById, normalizeEmail } from './users.repository.ts';

/**
 * What other features may do to an account through the auth module (the account lifecycle):
 * check its password, end its sessions, remove it. Sessions, identities, factors and one-time
 * tokens go with the user row (foreign keys on delete cascade); the sockets opened with its
 * sessions are closed through onSessionsEnded.
 */
export type Accounts = {
  /**
   * The account's own password, for confirming a destructive action; false for an account without
   * one. A guess like a sign-in: the sign-in guard's limits and slowdown hold for it (by the
   * account's email and the caller's IP), or a stolen token would let anyone try passwords freely.
   */
  passwordMatches: (userId: string, password: string, ip: string) => Promise<boolean>;
  /** Whether this sign-in session of the person is still open (not signed out, ended or expired away). */
  sessionActive: (userId: string, sessionId: string) => Promise<boolean>;
  /**
   * Whether this session is the person's first visit: the first session to ask is recorded as it,
   * and stays it (a reload still is the first visit) until the person comes back after a break;
   * every later session, and that one after a break, is a return.
   */
  firstVisit: (user: UserRow, sessionId: string) => Promise<boolean>;
  /** Signs the person out everywhere, or everywhere but `keepSessionId`. */
  endSessions: (userId: string, keepSessionId?: string) => Promise<void>;
  /** Deletes the user with their sessions, identities, factors and tokens: old access tokens answer 401 from now on. */
  /** `within`: a caller's transaction (the account's deletion commits with its domain event). */
  deleteUser: (userId: string, within?: Db) => Promise<void>;
};

export function createAccounts(ctx: AuthContext): Accounts {
  return {
    passwordMatches: async (userId, password, ip) => {
      const user = await findUserById(ctx.db, userId);
      if (!user?.encrypted_password) return false;
      const email = normalizeEmail(user.email ?? '');
      try {
        await ctx.limits.signIn.before(email, ip);
      } catch (error) {
        if (error instanceof GoTrueError && error.status === 429) throw new AppError('RATE_LIMITED', 'Too many wrong passwords. Try again later.');
        throw error;
      }
      const matches = await verifyPassword(password, user.encrypted_password, ctx.config.auth.passwordHash);
      await (matches ? ctx.limits.signIn.succeeded(email, ip) : ctx.limits.signIn.failed(email, ip));
      return matches;
    },
    sessionActive: async (userId, sessionId) => (await findSession(ctx.db, sessionId))?.user_id === userId,
    firstVisit: (user, sessionId) => claimFirstVisit(ctx.db, user, sessionId, ctx.clock.now()),
    endSessions: (userId, keepSessionId) =>
      keepSessionId === undefined
        ? endSessions(ctx, { userId, sessionId: '', scope: 'global' })
        : endSessions(ctx, { userId, sessionId: keepSessionId, scope: 'others' }),
    deleteUser: async (userId, within) => {
      await deleteUserRow(within ?? ctx.db, userId);
      ctx.onSessionsEnded({ userId });
    },
  };
}
