import crypto from 'node:crypto';
import type { Db } from '#server/db/create-db.ts';
import type { AmrEntry } from './access-token.ts';
import type { AuthContext } from './auth-context.ts';
import type { SessionRow } from './auth.table.ts';
import type { Clock } from '#server/lib/clock.ts';
import { nowIso, unixSeconds } from './clock.ts';
import { GoTrueError, errors } from './gotrue-error.ts';
import {
  deleteSession,
  deleteSessionRefreshTokens,
  deleteUserSessions,
  findActiveRefreshToken,
  findRefreshTokenByHash,
  findRefreshTokenLinkByHash,
  insertRefreshToken,
  insertSession,
  lockSession,
  markRefreshTokenRotated,
  markSessionRefreshed,
} from './sessions.repository.ts';

/**
 * Server-side sessions and their refresh tokens (auth-contract §2.6, §4.3).
 *
 * A refresh token is 32 random bytes, stored only as its SHA-256. Each rotation stores the
 * successor encrypted under a key derived from its parent, so a client presenting a token it has
 * already used can be handed the session's active token (the "client lost the response" and "two
 * tabs refreshed at once" cases) while a database leak yields no usable token.
 */

const TOKEN_BYTES = 32;
const MIN_TOKEN_LENGTH = 12;

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
const newToken = () => crypto.randomBytes(TOKEN_BYTES).toString('base64url');

function childKey(parentToken: string): Buffer {
  return crypto.createHash('sha256').update(`parley refresh-token successor\0${parentToken}`).digest();
}

function sealChild(parentToken: string, childToken: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', childKey(parentToken), iv);
  const sealed = Buffer.concat([cipher.update(childToken, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

function openChild(parentToken: string, ciphertext: string): string | undefined {
  try {
    const raw = Buffer.from(ciphertext, 'base64url');
    const decipher = crypto.createDecipheriv('aes-256-gcm', childKey(parentToken), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined; // not sealed with this parent token: the chain cannot be followed, as if it ended here
  }
}

export type NewSession = { session: SessionRow; refreshToken: string };

async function insertToken(db: Db, sessionId: string, token: string, parentId: string | null, now: string = nowIso()): Promise<string> {
  const id = crypto.randomUUID();
  await insertRefreshToken(db, {
    id,
    session_id: sessionId,
    token_hash: sha256(token),
    parent_id: parentId,
    revoked: 0,
    child_ciphertext: null,
    created_at: now,
    updated_at: now,
  });
  return id;
}

export async function createSession(
  db: Db,
  input: { userId: string; method: string; ip: string | null; userAgent: string | null; recovery?: boolean },
): Promise<NewSession> {
  const now = nowIso();
  const session: SessionRow = {
    id: crypto.randomUUID(),
    user_id: input.userId,
    aal: 'aal1',
    amr: JSON.stringify([{ method: input.method, timestamp: unixSeconds() }] satisfies AmrEntry[]),
    factor_id: null,
    recovery: input.recovery ? 1 : 0,
    user_agent: input.userAgent,
    ip: input.ip,
    created_at: now,
    updated_at: now,
    refreshed_at: null,
  };
  const refreshToken = newToken();
  await db.transaction().execute(async (trx) => {
    await insertSession(trx, session);
    await insertToken(trx, session.id, refreshToken, null);
  });
  return { session, refreshToken };
}

export const sessionAmr = (session: SessionRow): AmrEntry[] => JSON.parse(session.amr) as AmrEntry[];

/**
 * Exchanges a refresh token for the token to use next (GoTrue's rotation and reuse rules):
 * the active token rotates; a token revoked no more than the reuse interval ago whose successor
 * chain leads to the active token (and always the active token's direct parent) gets the active
 * token back; any other reuse ends the whole session. The interval runs from the presented
 * token's own revocation (its updated_at, as GoTrue's REFRESH_TOKEN_REUSE_INTERVAL), not from the
 * session's last refresh, which a later rotation keeps moving forward.
 */
export async function rotateRefreshToken(
  db: Db,
  presented: string,
  options: { reuseIntervalSeconds: number; clock: Clock; onSessionsEnded: AuthContext['onSessionsEnded'] },
): Promise<{ session: SessionRow; refreshToken: string }> {
  if (presented.length < MIN_TOKEN_LENGTH) throw errors.validation('Refresh token is not valid');
  const outcome = await db
    .transaction()
    .execute(async (trx): Promise<{ session: SessionRow; refreshToken: string } | { reusedSessionId: string; userId: string }> => {
      const token = await findRefreshTokenByHash(trx, sha256(presented));
      if (!token) throw notFound();
      // Serialises concurrent refreshes of one session (a row lock on PostgreSQL; SQLite transactions are already serial).
      const session = await lockSession(trx, token.session_id);
      if (!session) throw new GoTrueError(400, 'session_not_found', 'Invalid Refresh Token: No Valid Session Found');
      const nowDate = options.clock.now();
      const now = nowDate.toISOString();

      if (token.revoked === 0) {
        const successor = newToken();
        await insertToken(trx, session.id, successor, token.id, now);
        await markRefreshTokenRotated(trx, token.id, { childCiphertext: sealChild(presented, successor), now });
        await markSessionRefreshed(trx, session.id, now);
        return { session: { ...session, refreshed_at: now }, refreshToken: successor };
      }

      const active = await findActiveRefreshToken(trx, session.id);
      const isParentOfActive = active !== undefined && active.parent_id === token.id;
      // A revoked token's updated_at is the moment it was rotated away (markRefreshTokenRotated).
      const secondsSinceRevoked = (nowDate.getTime() - Date.parse(token.updated_at)) / 1000;
      const withinInterval = secondsSinceRevoked <= options.reuseIntervalSeconds;
      if (active && (isParentOfActive || withinInterval)) {
        const activeToken = await followChain(trx, token, presented, active.id);
        if (activeToken !== undefined) return { session, refreshToken: activeToken };
      }
      return { reusedSessionId: session.id, userId: session.user_id };
    });
  if ('reusedSessionId' in outcome) {
    // Reuse outside the rules: assume the token was stolen and end the whole session (GoTrue v2).
    // Outside the transaction above, which an error would roll back.
    await deleteSession(db, outcome.reusedSessionId);
    options.onSessionsEnded({ userId: outcome.userId, sessionIds: [outcome.reusedSessionId] });
    throw new GoTrueError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used');
  }
  return outcome;
}

const notFound = () => new GoTrueError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');

/** Decrypts successors from `start` until the active token, or undefined if the chain breaks. */
async function followChain(db: Db, start: { id: string; child_ciphertext: string | null }, startToken: string, activeId: string): Promise<string | undefined> {
  let current = start;
  let currentToken = startToken;
  for (let hops = 0; hops < 1000; hops += 1) {
    if (current.child_ciphertext === null) return undefined;
    const child = openChild(currentToken, current.child_ciphertext);
    if (child === undefined) return undefined;
    const childRow = await findRefreshTokenLinkByHash(db, sha256(child));
    if (!childRow) return undefined;
    if (childRow.id === activeId) return child;
    current = childRow;
    currentToken = child;
  }
  return undefined;
}

/** Replaces every refresh token of the session with a fresh one (after MFA: aal1 tokens must not mint aal2 tokens). */
export async function resetRefreshTokens(db: Db, sessionId: string): Promise<string> {
  const token = newToken();
  await db.transaction().execute(async (trx) => {
    await deleteSessionRefreshTokens(trx, sessionId);
    await insertToken(trx, sessionId, token, null);
  });
  return token;
}

export type LogoutScope = 'global' | 'local' | 'others';

/** Sign-out (auth-contract §4.4): this session, the others, or all; their sockets are closed too. */
export async function endSessions(
  ctx: Pick<AuthContext, 'db' | 'onSessionsEnded'>,
  input: { userId: string; sessionId: string; scope: LogoutScope },
): Promise<void> {
  const { userId, sessionId } = input;
  if (input.scope === 'local') {
    await deleteUserSessions(ctx.db, userId, { only: sessionId });
    ctx.onSessionsEnded({ userId, sessionIds: [sessionId] });
  } else if (input.scope === 'others') {
    await deleteUserSessions(ctx.db, userId, { except: sessionId });
    ctx.onSessionsEnded({ userId, except: sessionId });
  } else {
    await deleteUserSessions(ctx.db, userId);
    ctx.onSessionsEnded({ userId });
  }
}
