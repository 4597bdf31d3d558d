import crypto from 'node:crypto';
import type { Db } from '#server/db/create-db.ts';
import type { UserRow } from './auth.table.ts';
import { nowIso } from './clock.ts';
import { errors } from './gotrue-error.ts';
import { insertUserWithIdentity, listEmailIdentities, normalizeEmail, replaceUserEmail, setEmailConfirmed, updateIdentity } from './users.repository.ts';

export type Metadata = Record<string, unknown>;

export const parseJsonObject = (text: string): Metadata => {
  const value: unknown = JSON.parse(text);
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Metadata) : {};
};

/**
 * Limits on user metadata (signup and /otp `data`, PUT /user `data` once merged). Metadata is copied
 * into every access token, so its size is the tokens' size; and a structure nested thousands deep
 * overflows the stack of whatever walks it (JSON.stringify among them) instead of being refused.
 */
export const MAX_METADATA_DEPTH = 32;
export const MAX_METADATA_BYTES = 16 * 1024;

/** Refuses metadata nested deeper than MAX_METADATA_DEPTH or longer than MAX_METADATA_BYTES as JSON (400 validation_failed). */
export function assertMetadataWithinLimits(data: Metadata): void {
  // Walked with an explicit stack: recursion is what the depth limit guards against.
  const pending: { value: unknown; depth: number }[] = [{ value: data, depth: 1 }];
  while (pending.length > 0) {
    const { value, depth } = pending.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_METADATA_DEPTH) throw errors.validation(`User metadata is nested too deeply (at most ${MAX_METADATA_DEPTH} levels)`);
    for (const child of Object.values(value)) pending.push({ value: child, depth: depth + 1 });
  }
  if (Buffer.byteLength(JSON.stringify(data), 'utf8') > MAX_METADATA_BYTES) {
    throw errors.validation(`User metadata is too large (at most ${MAX_METADATA_BYTES / 1024} KB as JSON)`);
  }
}

export function isBanned(user: UserRow): boolean {
  return user.banned_until !== null && Date.parse(user.banned_until) > Date.now();
}

/** Creates a user with its email identity (GoTrue: signup). */
export async function createEmailUser(db: Db, input: { email: string; passwordHash: string; data: Metadata; confirmed: boolean }): Promise<UserRow> {
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
    email_change_confirm_status: 0,
    last_sign_in_at: null,
    first_session_id: null,
    first_visit_seen_at: null,
    raw_app_meta_data: JSON.stringify({ provider: 'email', providers: ['email'] }),
    raw_user_meta_data: JSON.stringify(userMetadata),
    banned_until: null,
    created_at: now,
    updated_at: now,
  };
  // Identity data carries the signup data keys that do not collide with the standard ones.
  const identityData: Metadata = { ...input.data, sub: id, email, email_verified: input.confirmed, phone_verified: false };
  await insertUserWithIdentity(db, user, {
    id: crypto.randomUUID(),
    provider_id: id,
    user_id: id,
    provider: 'email',
    identity_data: JSON.stringify(identityData),
    email,
    last_sign_in_at: null,
    created_at: now,
    updated_at: now,
  });
  return user;
}

/** Marks the email confirmed on the user, its metadata and its email identity; answers when (null: it already was). */
export async function confirmEmail(db: Db, user: UserRow): Promise<string | null> {
  if (user.email_confirmed_at !== null) return null;
  const now = nowIso();
  const metadata = { ...parseJsonObject(user.raw_user_meta_data), email_verified: true };
  await setEmailConfirmed(db, user.id, { userMetadata: JSON.stringify(metadata), now });
  const identities = await listEmailIdentities(db, user.id);
  for (const identity of identities) {
    const data = { ...parseJsonObject(identity.identity_data), email_verified: true };
    await updateIdentity(db, identity.id, { identityData: JSON.stringify(data), now });
  }
  return now;
}

/** Makes a confirmed new address the account's email, on the user and its email identities; false when it is no longer the pending one. */
export async function completeEmailChange(db: Db, user: UserRow, email: string): Promise<boolean> {
  const now = nowIso();
  if (!(await replaceUserEmail(db, user.id, { email, emailConfirmedAt: user.email_confirmed_at ?? now, now }))) return false;
  const identities = await listEmailIdentities(db, user.id);
  for (const identity of identities) {
    const data = { ...parseJsonObject(identity.identity_data), email, email_verified: true };
    await updateIdentity(db, identity.id, { email, identityData: JSON.stringify(data), now });
  }
  return true;
}
