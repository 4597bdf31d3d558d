import crypto from 'node:crypto';
import type { Db } from '#server/db/create-db.ts';
import type { AuthOneTimeTokensTable } from './auth.table.ts';
import { nowIso, secondsSince } from './clock.ts';

/**
 * Email tokens (auth-contract §4.8): a 6-digit code for people to type and, for the link, the
 * token_hash = hex SHA-224(email + code). One live token per user and kind; single use.
 */
export type TokenType = AuthOneTimeTokensTable['token_type'];

export const tokenHash = (email: string, otp: string): string => crypto.createHash('sha224').update(email + otp).digest('hex');

export async function issueOneTimeToken(db: Db, input: { userId: string; email: string; type: TokenType }): Promise<{ otp: string; hash: string }> {
  const otp = crypto.randomInt(0, 1_000_000).toString().padStart(6, '0');
  const hash = tokenHash(input.email, otp);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('auth_one_time_tokens').where('user_id', '=', input.userId).where('token_type', '=', input.type).execute();
    await trx
      .insertInto('auth_one_time_tokens')
      .values({ id: crypto.randomUUID(), user_id: input.userId, token_type: input.type, token_hash: hash, relates_to: input.email, created_at: nowIso() })
      .execute();
  });
  return { otp, hash };
}

/** Finds and deletes (uses up) a live token; undefined when unknown or expired. */
export async function consumeOneTimeToken(
  db: Db,
  input: { hash: string; types: TokenType[]; maxAgeSeconds: number },
): Promise<{ userId: string; type: TokenType; relatesTo: string } | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('auth_one_time_tokens')
      .selectAll()
      .where('token_hash', '=', input.hash)
      .where('token_type', 'in', input.types)
      .executeTakeFirst();
    if (!row) return undefined;
    await trx.deleteFrom('auth_one_time_tokens').where('id', '=', row.id).execute();
    if (secondsSince(row.created_at) > input.maxAgeSeconds) return undefined;
    return { userId: row.user_id, type: row.token_type, relatesTo: row.relates_to };
  });
}

export async function clearOneTimeTokens(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('auth_one_time_tokens').where('user_id', '=', userId).execute();
}
