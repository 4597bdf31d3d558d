import { errors as joseErrors, jwtVerify, SignJWT, decodeProtectedHeader, type CryptoKey } from 'jose';
import { LRUCache } from 'lru-cache';
import { GoTrueError } from './gotrue-error.ts';
import { JWT_ALG, type SigningKeys } from './signing-keys.ts';
import { unixSeconds } from './clock.ts';

export type AmrEntry = { method: string; timestamp: number };

/** The access token's claims, in GoTrue's order (auth-contract §2.5). */
export type AccessTokenClaims = {
  iss: string;
  sub: string;
  aud: 'authenticated';
  exp: number;
  iat: number;
  email: string;
  phone: string;
  app_metadata: Record<string, unknown>;
  user_metadata: Record<string, unknown>;
  role: 'authenticated';
  aal: 'aal1' | 'aal2';
  amr: AmrEntry[];
  session_id: string;
  is_anonymous: boolean;
};

export type AccessTokenInput = Omit<AccessTokenClaims, 'iss' | 'aud' | 'exp' | 'iat' | 'role' | 'is_anonymous'>;

export async function signAccessToken(
  keys: SigningKeys,
  input: AccessTokenInput,
  options: { issuer: string; expiresInSeconds: number },
): Promise<{ token: string; expiresAt: number }> {
  const iat = unixSeconds();
  const exp = iat + options.expiresInSeconds;
  const claims: AccessTokenClaims = {
    iss: options.issuer,
    sub: input.sub,
    aud: 'authenticated',
    exp,
    iat,
    email: input.email,
    phone: input.phone,
    app_metadata: input.app_metadata,
    user_metadata: input.user_metadata,
    role: 'authenticated',
    aal: input.aal,
    amr: input.amr,
    session_id: input.session_id,
    is_anonymous: false,
  };
  const key = await keys.current();
  const token = await new SignJWT(claims).setProtectedHeader({ alg: JWT_ALG, kid: key.kid, typ: 'JWT' }).sign(key.privateKey);
  return { token, expiresAt: exp };
}

/** The installation's public anon key: a long-lived JWT with role anon that identifies the project, not a person. */
export async function signAnonKey(keys: SigningKeys, issuer: string): Promise<string> {
  const iat = unixSeconds();
  const key = await keys.current();
  return new SignJWT({ iss: issuer, role: 'anon', iat, exp: iat + 10 * 365 * 24 * 3600 })
    .setProtectedHeader({ alg: JWT_ALG, kid: key.kid, typ: 'JWT' })
    .sign(key.privateKey);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const badJwt = (detail: string) => new GoTrueError(403, 'bad_jwt', `invalid JWT: unable to parse or verify signature, ${detail}`);

type Verified = { claims: AccessTokenClaims; kid: string; publicKey: CryptoKey; issuer: string };

/**
 * Tokens already verified, per key ring: a browser presents the same access token on every request
 * for up to an hour, and checking its ES256 signature again each time was the largest cost of an
 * authenticated request. Only tokens that passed are kept (a forged one never enters); a hit still
 * checks expiry and that the signing key is still published (a removed key ends its tokens at once),
 * and the caller still checks the session, so sign-out is as immediate as before.
 */
const verifiedByRing = new WeakMap<SigningKeys, LRUCache<string, Verified>>();

/** Verifies signature, expiry (exp and iat must be there), issuer and audience, with GoTrue's error texts for each failure. */
export async function verifyAccessToken(keys: SigningKeys, token: string, issuer: string): Promise<AccessTokenClaims> {
  let verified = verifiedByRing.get(keys);
  if (!verified) verifiedByRing.set(keys, (verified = new LRUCache<string, Verified>({ max: 10_000 })));
  const hit = verified.get(token);
  if (hit && hit.issuer === issuer && (await keys.find(hit.kid))?.publicKey === hit.publicKey) {
    if (hit.claims.exp <= unixSeconds()) {
      verified.delete(token);
      throw badJwt('token has invalid claims: token is expired');
    }
    return hit.claims;
  }
  return verifySignedToken(keys, token, issuer);
}

async function verifySignedToken(keys: SigningKeys, token: string, issuer: string): Promise<AccessTokenClaims> {
  let kid: string | undefined;
  try {
    const header = decodeProtectedHeader(token);
    kid = header.kid;
    if (header.alg !== JWT_ALG) throw badJwt(`signing method ${String(header.alg)} is invalid`);
  } catch (error) {
    if (error instanceof GoTrueError) throw error;
    throw badJwt('token is malformed');
  }
  const key = kid === undefined ? undefined : await keys.find(kid);
  if (!key) throw badJwt('token is unverifiable: signing key not found');
  let payload: Record<string, unknown>;
  try {
    // exp and iat are required: a token without exp would never expire (and would stay in the cache above for good).
    ({ payload } = await jwtVerify(token, key.publicKey, { algorithms: [JWT_ALG], issuer, requiredClaims: ['exp', 'iat'] }));
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw badJwt('token has invalid claims: token is expired');
    if (error instanceof joseErrors.JWTClaimValidationFailed) throw badJwt(`token has invalid claims: ${error.message}`);
    throw badJwt('token signature is invalid');
  }
  if (typeof payload.sub !== 'string' || payload.sub === '') throw new GoTrueError(403, 'bad_jwt', 'invalid claim: missing sub claim');
  if (!UUID.test(payload.sub)) throw new GoTrueError(400, 'bad_jwt', 'invalid claim: sub claim must be a UUID');
  if (payload.aud !== 'authenticated') throw new GoTrueError(400, 'validation_failed', "Token audience doesn't match request audience");
  const claims = payload as unknown as AccessTokenClaims;
  verifiedByRing.get(keys)?.set(token, { claims, kid: kid!, publicKey: key.publicKey, issuer });
  return claims;
}
