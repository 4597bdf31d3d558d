import type { Db } from '#server/db/create-db.ts';
import { parseJsonObject } from './users.ts';

/** A person as other people see them (teams, "Shared by …"): never their sessions or secrets. */
export type Profile = { id: string; name: string; email: string; lastActiveAt: string | null; avatarUrl: string | null };

/** The profile picture this server serves for the person (Settings › Profile "Change"), never an address elsewhere. */
function avatarUrlOf(rawMetadata: string): string | null {
  const url = parseJsonObject(rawMetadata).avatar_url;
  return typeof url === 'string' && url.startsWith('/api/v1/avatars/') ? url : null;
}

/** The name a person gave (Settings › Profile), else the part of their email before the @. */
export function displayName(user: { email: string; raw_user_meta_data: string }): string {
  const fullName = parseJsonObject(user.raw_user_meta_data).full_name;
  return typeof fullName === 'string' && fullName.trim() !== '' ? fullName.trim() : (user.email.split('@')[0] ?? user.email);
}

/**
 * People's names, emails and when they last used Parley: the latest sign-in, session start or token
 * refresh of any of their sessions (the web app refreshes its token while it is open).
 */
export async function profilesOf(db: Db, ids: readonly string[]): Promise<Map<string, Profile>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const [users, sessions] = await Promise.all([
    db.selectFrom('auth_users').select(['id', 'email', 'raw_user_meta_data', 'last_sign_in_at']).where('id', 'in', unique).execute(),
    db
      .selectFrom('auth_sessions')
      .select(['user_id', (eb) => eb.fn.max('updated_at').as('updated'), (eb) => eb.fn.max('refreshed_at').as('refreshed')])
      .where('user_id', 'in', unique)
      .groupBy('user_id')
      .execute(),
  ]);
  const seen = new Map(
    sessions.map((s) => [
      s.user_id,
      [s.updated, s.refreshed]
        .filter((v): v is string => typeof v === 'string')
        .sort()
        .at(-1) ?? null,
    ]),
  );
  return new Map(
    users.map((u) => {
      const latest =
        [u.last_sign_in_at, seen.get(u.id) ?? null]
          .filter((v): v is string => v !== null)
          .sort()
          .at(-1) ?? null;
      return [u.id, { id: u.id, name: displayName(u), email: u.email, lastActiveAt: latest, avatarUrl: avatarUrlOf(u.raw_user_meta_data) }];
    }),
  );
}
