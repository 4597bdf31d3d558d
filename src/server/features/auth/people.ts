import { ianaTimeZone } from '#shared/contracts/time-zones.ts';
import type { Db } from '#server/db/create-db.ts';
import { profilesOf, type Profile } from './profiles.repository.ts';
import { parseJsonObject } from './users.ts';
import { findUserByEmail, findUserById } from './users.repository.ts';

/** An account as Request Data Export writes it. */
export type AccountRecord = { id: string; email: string; fullName: string | null; createdAt: string };

/**
 * What other features read of people (deps.ts hands these to them): profiles for teammates and
 * "Shared by", names, who has an address, the time zone of Settings › Profile, the account for an
 * export. Never a session or a secret.
 */
export function createPeople(db: Db) {
  return {
    profilesOf: (ids: readonly string[]): Promise<Map<string, Profile>> => profilesOf(db, ids),
    namesOf: async (ids: readonly string[]): Promise<Map<string, string>> =>
      new Map([...(await profilesOf(db, ids))].map(([id, profile]) => [id, profile.name])),
    userIdOfEmail: async (email: string): Promise<string | undefined> => (await findUserByEmail(db, email))?.id,
    /** The IANA zone of the person's Settings › Profile choice: notes' due dates, exports' times. */
    timeZoneOf: async (userId: string): Promise<string> => {
      const user = await findUserById(db, userId);
      return ianaTimeZone(user ? parseJsonObject(user.raw_user_meta_data).timezone : undefined);
    },
    accountOf: async (userId: string): Promise<AccountRecord | undefined> => {
      const user = await findUserById(db, userId);
      if (!user) return undefined;
      const fullName = parseJsonObject(user.raw_user_meta_data).full_name;
      return { id: user.id, email: user.email, fullName: typeof fullName === 'string' ? fullName : null, createdAt: user.created_at };
    },
  };
}
