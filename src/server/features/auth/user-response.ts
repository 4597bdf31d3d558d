import crypto from 'node:crypto';
import type { Db } from '#server/db/create-db.ts';
import type { FactorRow, IdentityRow, UserRow } from './auth.table.ts';
import { nowIso } from './clock.ts';
import { listFactors } from './mfa.repository.ts';
import { findUserById, listIdentities, normalizeEmail } from './users.repository.ts';
import { parseJsonObject, type Metadata } from './users.ts';

// The wire shape (auth-contract §2.1–2.3). Absent-when-null fields are omitted, not sent as null.

export type UserJson = Record<string, unknown> & { id: string; email: string };

const omitNull = (entries: Record<string, string | null>): Record<string, string> =>
  Object.fromEntries(Object.entries(entries).filter((e): e is [string, string] => e[1] !== null));

function identityJson(row: IdentityRow): Record<string, unknown> {
  return {
    identity_id: row.id,
    id: row.provider_id,
    user_id: row.user_id,
    identity_data: parseJsonObject(row.identity_data),
    provider: row.provider,
    last_sign_in_at: row.last_sign_in_at ?? row.created_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
    email: row.email,
  };
}

function factorJson(row: FactorRow): Record<string, unknown> {
  return {
    id: row.id,
    ...(row.friendly_name ? { friendly_name: row.friendly_name } : {}),
    factor_type: row.factor_type,
    status: row.status,
    created_at: row.created_at,
    updated_at: row.updated_at,
    last_challenged_at: row.last_challenged_at,
    phone: '',
  };
}

export function presentUser(user: UserRow, identities: IdentityRow[], factors: FactorRow[]): UserJson {
  const confirmedAt = user.email_confirmed_at;
  return {
    id: user.id,
    aud: 'authenticated',
    role: 'authenticated',
    email: user.email,
    ...omitNull({ email_confirmed_at: confirmedAt }),
    phone: '',
    ...omitNull({
      confirmation_sent_at: user.confirmation_sent_at,
      confirmed_at: confirmedAt,
      recovery_sent_at: user.recovery_sent_at,
      new_email: user.email_change,
      email_change_sent_at: user.email_change_sent_at,
      last_sign_in_at: user.last_sign_in_at,
      banned_until: user.banned_until,
    }),
    app_metadata: parseJsonObject(user.raw_app_meta_data),
    user_metadata: parseJsonObject(user.raw_user_meta_data),
    identities: identities.map(identityJson),
    ...(factors.length > 0 ? { factors: factors.map(factorJson) } : {}),
    created_at: user.created_at,
    updated_at: user.updated_at,
    is_anonymous: false,
  };
}

/** Loads the user with identities and factors, as every user response carries them. */
export async function loadUserJson(db: Db, userId: string): Promise<UserJson | undefined> {
  const user = await findUserById(db, userId);
  if (!user) return undefined;
  const [identities, factors] = await Promise.all([listIdentities(db, userId), listFactors(db, userId)]);
  return presentUser(user, identities, factors);
}

/** The obfuscated user GoTrue returns for a sign-up of a confirmed address when confirmation is on (no enumeration). */
export function fakeUser(email: string, data: Metadata): UserJson {
  const now = nowIso();
  return {
    id: crypto.randomUUID(),
    aud: 'authenticated',
    role: '',
    email: normalizeEmail(email),
    phone: '',
    confirmation_sent_at: now,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: data,
    identities: [],
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  };
}
