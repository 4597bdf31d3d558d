import type { AuthContext } from './auth-context.ts';
import { verifyPassword } from './passwords.ts';
import { endSessions } from './sessions.ts';
import { deleteUserRow, findUserById } from './users.repository.ts';

/**
 * What other features may do to an account through the auth module (the account lifecycle):
 * check its password, end its sessions, remove it. Sessions, identities, factors and one-time
 * tokens go with the user row (foreign keys on delete cascade); the sockets opened with its
 * sessions are closed through onSessionsEnded.
 */
export type Accounts = {
  /** The account's own password, for confirming a destructive action; false for an account without one. */
  passwordMatches: (userId: string, password: string) => Promise<boolean>;
  /** Signs the person out everywhere, or everywhere but `keepSessionId`. */
  endSessions: (userId: string, keepSessionId?: string) => Promise<void>;
  /** Deletes the user with their sessions, identities, factors and tokens: old access tokens answer 401 from now on. */
  deleteUser: (userId: string) => Promise<void>;
};

export function createAccounts(ctx: AuthContext): Accounts {
  return {
    passwordMatches: async (userId, password) => {
      const user = await findUserById(ctx.db, userId);
      return user?.encrypted_password ? verifyPassword(password, user.encrypted_password, ctx.config.auth.passwordHash) : false;
    },
    endSessions: (userId, keepSessionId) =>
      keepSessionId === undefined
        ? endSessions(ctx, { userId, sessionId: '', scope: 'global' })
        : endSessions(ctx, { userId, sessionId: keepSessionId, scope: 'others' }),
    deleteUser: async (userId) => {
      await deleteUserRow(ctx.db, userId);
      ctx.onSessionsEnded({ userId });
    },
  };
}
