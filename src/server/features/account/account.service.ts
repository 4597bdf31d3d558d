import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Db } from '#server/db/create-db.ts';
import type { DomainEvents } from '#server/events/domain-events.ts';
import { AppError } from '#server/lib/app-error.ts';
import type { MeetingsService } from '../meetings/meetings.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';

/**
 * Asked before an account is deleted; refuses by throwing an AppError whose message tells the
 * person what to do first (the teams feature: "transfer or delete the teams you own"). Given in
 * deps.ts, so this feature knows nothing of what may hold an account back.
 */
export type BeforeAccountDeleted = (userId: string) => Promise<void>;

/** Data of the person that lives outside the meetings and settings (e.g. data-export archives), removed with the rest. */
export type OnAccountDataDeleted = (userId: string) => Promise<void>;

export type AccountCaller = { userId: string; email: string; sessionId: string; ip: string };

/** What this feature needs of the auth server (deps.ts hands it the auth module's `accounts`). */
export type AccountsPort = {
  /** Checked as a sign-in attempt from `ip` (the sign-in guard's limits). */
  passwordMatches: (userId: string, password: string, ip: string) => Promise<boolean>;
  /** Everywhere, or everywhere but `keepSessionId`; their sockets close too. */
  endSessions: (userId: string, keepSessionId?: string) => Promise<void>;
  deleteUser: (userId: string, within?: Db) => Promise<void>;
};

/** The account lifecycle: Settings › Privacy's Delete All Data and Delete Account. */
export type AccountService = ReturnType<typeof createAccountService>;

export function createAccountService(deps: {
  meetings: MeetingsService;
  settings: SettingsService;
  accounts: AccountsPort;
  beforeAccountDeleted: readonly BeforeAccountDeleted[];
  /** Run first, before any of the data is deleted: what could still add to it stops (the samples' setting up). */
  beforeDataDeleted?: readonly OnAccountDataDeleted[];
  onDataDeleted?: readonly OnAccountDataDeleted[];
  /** Delete Account only, after the data and before the account goes (the teams feature revokes the person's invitations). */
  onAccountDeleted?: readonly OnAccountDataDeleted[];
  /** The account's deletion commits with its `account.deleted` event; the person's delivered events are forgotten with their data. */
  events: Pick<DomainEvents, 'transaction' | 'forgetOwner'>;
  log: Logger;
}) {
  const { meetings, settings, accounts } = deps;

  /** Everything of the person but the account itself: meetings (with audio, uploads in progress, notes, tracker items, share links), then settings. */
  const removeData = async (userId: string): Promise<number> => {
    for (const hook of deps.beforeDataDeleted ?? []) await hook(userId);
    const deletedMeetings = await meetings.removeAll(userId);
    await settings.remove(userId);
    for (const hook of deps.onDataDeleted ?? []) await hook(userId);
    // What happened to their data (titles, notes) is theirs too: gone once nothing waits on it.
    await deps.events.forgetOwner(userId);
    return deletedMeetings;
  };

  return {
    /**
     * Delete All Data: the other sessions end first (no other device keeps adding while the data
     * goes, or keeps showing it), then the data; this session stays signed in to an empty account.
     */
    deleteAllData: async (caller: AccountCaller, confirm: { email: string }): Promise<{ deletedMeetings: number }> => {
      assertEmailConfirms(caller, confirm.email);
      await accounts.endSessions(caller.userId, caller.sessionId);
      const deletedMeetings = await removeData(caller.userId);
      deps.log.info({ userId: caller.userId, deletedMeetings }, 'all data of an account deleted at its request');
      return { deletedMeetings };
    },

    /**
     * Delete Account: confirmed by the email and the password; refused while anything holds the
     * account back. Every session ends first, so no token of it opens anything from here on, then the
     * data, then the user.
     */
    deleteAccount: async (caller: AccountCaller, confirm: { email: string; password: string }): Promise<{ deletedMeetings: number }> => {
      assertEmailConfirms(caller, confirm.email);
      if (!(await accounts.passwordMatches(caller.userId, confirm.password, caller.ip))) {
        throw new AppError('FORBIDDEN', 'The password is not correct. Nothing was deleted.');
      }
      for (const check of deps.beforeAccountDeleted) await check(caller.userId);
      await accounts.endSessions(caller.userId);
      const deletedMeetings = await removeData(caller.userId);
      for (const hook of deps.onAccountDeleted ?? []) await hook(caller.userId);
      await deps.events.transaction(async (trx, raise) => {
        await accounts.deleteUser(caller.userId, trx);
        raise({
          type: 'account.deleted',
          actorId: caller.userId,
          ownerId: caller.userId,
          teamId: null,
          subject: { type: 'user', id: caller.userId },
          payload: {},
        });
      });
      deps.log.info({ userId: caller.userId, deletedMeetings }, 'an account deleted at its request');
      return { deletedMeetings };
    },
  };
}

/** The typed address must be the account's own (case and surrounding spaces aside). */
function assertEmailConfirms(caller: AccountCaller, typed: string): void {
  if (typed.trim().toLowerCase() !== caller.email.toLowerCase()) {
    throw new AppError('VALIDATION_FAILED', "The email you typed is not this account's email. Nothing was deleted.");
  }
}
