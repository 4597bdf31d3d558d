import crypto from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Db } from '#server/db/create-db.ts';
import type { AuthIdentitiesTable, AuthMfaFactorsTable, AuthUsersTable } from './auth.table.ts';
import { nowIso } from './clock.ts';

export type UserRow = Selectable<AuthUsersTable>;
type IdentityRow = Selectable<AuthIdentitiesTable>;
type FactorRow = Selectable<AuthMfaFactorsTable>;

export type Metadata = Record<string, unknown>;

export const parseJsonObject = (text: string): Metadata => {
  const value: unknown = JSON.parse(text);
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Metadata) : {};
};

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('auth_users').selectAll().where('email', '=', normalizeEmail(email)).executeTakeFirst();
}

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('auth_users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function isBanned(user: UserRow): boolean {
  return user.banned_until !== null && Date.parse(user.banned_until) > Date.now();
}

/** Creates a user with its email identity (GoTrue: signup). */
export async function createEmailUser(
  db: Db,
  input: { email: string; passwordHash: string; data: Metadata; confirmed: boolean },
): Promise<UserRow> {
  const now = nowIso();
  const id = crypto.randomUUID();
  const email = normalizeEmail(input.email);
  const userMetadata = input.confirmed ? { ...input.data, email_verified: true } : { ...input.data };
  const user: UserRow = {
    id,
    email,
    encrypted_password: input.passwordHash,
    email_confirmed_at: input.confirmed ? now : null,
    confirmation_sent_at: null,
    recovery_sent_at: null,
    email_change: null,
    email_change_sent_at: null,
    last_sign_in_at: null,
    raw_app_meta_data: JSON.stringify({ provider: 'email', providers: ['email'] }),
    raw_user_meta_data: JSON.stringify(userMetadata),
    banned_until: null,
    created_at: now,
    updated_at: now,
  };
  // Identity data carries the signup data keys that do not collide with the standard ones.
  const identityData: Metadata = { ...input.data, sub: id, email, email_verified: input.confirmed, phone_verified: false };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('auth_users').values(user).execute();
    await trx
      .insertInto('auth_identities')
      .values({
        id: crypto.randomUUID(),
        provider_id: id,
        user_id: id,
        provider: 'email',
        identity_data: JSON.stringify(identityData),
        email,
        last_sign_in_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
  });
  return user;
}

/** Marks the email confirmed on the user, its metadata and its email identity. */
export async function confirmEmail(db: Db, user: UserRow): Promise<void> {
  if (user.email_confirmed_at !== null) return;
  const now = nowIso();
  const metadata = { ...parseJsonObject(user.raw_user_meta_data), email_verified: true };
  await db
    .updateTable('auth_users')
    .set({ email_confirmed_at: now, raw_user_meta_data: JSON.stringify(metadata), updated_at: now })
    .where('id', '=', user.id)
    .execute();
  const identities = await db.selectFrom('auth_identities').selectAll().where('user_id', '=', user.id).where('provider', '=', 'email').execute();
  for (const identity of identities) {
    const data = { ...parseJsonObject(identity.identity_data), email_verified: true };
    await db.updateTable('auth_identities').set({ identity_data: JSON.stringify(data), updated_at: now }).where('id', '=', identity.id).execute();
  }
}

export async function touchLastSignIn(db: Db, userId: string): Promise<void> {
  const now = nowIso();
  await db.updateTable('auth_users').set({ last_sign_in_at: now, updated_at: now }).where('id', '=', userId).execute();
  await db.updateTable('auth_identities').set({ last_sign_in_at: now }).where('user_id', '=', userId).execute();
}

// ---------------------------------------------------------------------------------------------
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
  const [identities, factors] = await Promise.all([
    db.selectFrom('auth_identities').selectAll().where('user_id', '=', userId).orderBy('created_at').execute(),
    db.selectFrom('auth_mfa_factors').selectAll().where('user_id', '=', userId).orderBy('created_at').execute(),
  ]);
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
