import { hash, verify } from '@node-rs/argon2';
import { GoTrueError, errors } from './gotrue-error.ts';

/**
 * Passwords are hashed with argon2id at the installation's cost (`AUTH_PASSWORD_HASH_*`; by default
 * OWASP's parameters: 19 MiB, 2 passes, 1 lane). A stored hash names its own parameters, so a changed
 * cost applies to new passwords and every older hash still verifies. GoTrue's bcrypt-era 72-byte
 * ceiling and its messages are kept so clients see the same rules.
 */
const ARGON2ID = 2;
export type PasswordHashCost = { memoryKib: number; passes: number };
const optionsOf = (cost: PasswordHashCost) => ({ algorithm: ARGON2ID, memoryCost: cost.memoryKib, timeCost: cost.passes, parallelism: 1 }) as const;
export const PASSWORD_MAX_BYTES = 72;

export function hashPassword(password: string, cost: PasswordHashCost): Promise<string> {
  return hash(password, optionsOf(cost));
}

/** Hashes of nothing anyone knows, by cost: verified against when the email is unknown so timing does not tell. */
const dummyHashes = new Map<string, Promise<string>>();

export async function verifyPassword(password: string, encoded: string | null, cost: PasswordHashCost): Promise<boolean> {
  if (encoded === null) {
    const key = `${cost.memoryKib}:${cost.passes}`;
    const dummy = dummyHashes.get(key) ?? hash('parley-dummy-password', optionsOf(cost));
    dummyHashes.set(key, dummy);
    await verify(await dummy, password).catch(() => false); // only its time matters: an unknown account takes as long as a wrong password
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
