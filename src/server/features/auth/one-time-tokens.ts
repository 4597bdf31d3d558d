import crypto from 'node:crypto';
import type { Db } from '#server/db/create-db.ts';
import type { AuthOneTimeTokensTable } from './auth.table.ts';
import { nowIso, secondsSince } from './clock.ts';
import { deleteUserOneTimeTokens, replaceOneTimeToken, takeOneTimeToken } from './one-time-tokens.repository.ts';

/**
 * Email tokens (auth-contract §4.8): a 6-digit code for people to type and, for the link, the
 * token_hash = hex SHA-224(email + code). One live token per user and kind; single use.
 */
export type TokenType = AuthOneTimeTokensTable['token_type'];

export const tokenHash = (email: string, otp: string): string =>
  crypto
    .createHash('sha224')
    .update(email + otp)
    .digest('hex');

export async function issueOneTimeToken(db: Db, input: { userId: string; email: string; type: TokenType }): Promise<{ otp: string; hash: string }> {
  const otp = crypto.randomInt(0, 1_000_000).toString().padStart(6, '0');
  const hash = tokenHash(input.email, otp);
  await replaceOneTimeToken(db, {
    id: crypto.randomUUID(),
    user_id: input.userId,
    token_type: input.type,
    token_hash: hash,
    relates_to: input.email,
    created_at: nowIso(),
  });
  return { otp, hash };
}

/** Finds and deletes (uses up) a live token; undefined when unknown or expired. */
export async function consumeOneTimeToken(
  db: Db,
  input: { hash: string; types: TokenType[]; maxAgeSeconds: number },
): Promise<{ userId: string; type: TokenType; relatesTo: string } | undefined> {
  const row = await takeOneTimeToken(db, { hash: input.hash, types: input.types });
  // Taken even when expired, so an expired token is gone after its first use.
  if (!row || secondsSince(row.created_at) > input.maxAgeSeconds) return undefined;
  return { userId: row.user_id, type: row.token_type, relatesTo: row.relates_to };
}

export async function clearOneTimeTokens(db: Db, userId: string): Promise<void> {
  await deleteUserOneTimeTokens(db, userId);
}
