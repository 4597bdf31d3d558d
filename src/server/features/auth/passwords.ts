import { hash, verify } from '@node-rs/argon2';
import { GoTrueError, errors } from './gotrue-error.ts';

/**
 * Passwords are hashed with argon2id (OWASP's parameters: 19 MiB, 2 passes, 1 lane). GoTrue's
 * bcrypt-era 72-byte ceiling and its messages are kept so clients see the same rules.
 */
const ARGON2ID = 2;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
export const PASSWORD_MAX_BYTES = 72;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** A hash of nothing anyone knows: verified against when the email is unknown so timing does not tell. */
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(password: string, encoded: string | null): Promise<boolean> {
  if (encoded === null) {
    dummyHash ??= hash('parley-dummy-password', OPTIONS);
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(encoded, password);
  } catch {
    return false; // a malformed stored hash never signs anyone in
  }
}

export function assertPasswordLength(password: string): void {
  if (Buffer.byteLength(password, 'utf8') > PASSWORD_MAX_BYTES) {
    throw errors.validation(`Password cannot be longer than ${PASSWORD_MAX_BYTES} characters`);
  }
}

export type WeakPassword = { message: string; reasons: string[] };

/** The strength policy (minimum length); undefined when the password passes. */
export function checkPasswordStrength(password: string, minLength: number): WeakPassword | undefined {
  if ([...password].length >= minLength) return undefined;
  return { message: `Password should be at least ${minLength} characters.`, reasons: ['length'] };
}

export function assertStrongPassword(password: string, minLength: number): void {
  const weak = checkPasswordStrength(password, minLength);
  if (weak) throw new GoTrueError(422, 'weak_password', weak.message, { weak_password: { reasons: weak.reasons } });
}
