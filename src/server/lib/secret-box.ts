import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PRIVATE_FILE_MODE } from './private-files.ts';

/**
 * Secrets at rest (the JWT signing keys, TOTP secrets): AES-256-GCM with the installation's key,
 * stored as `enc:v1:<base64url of iv | tag | ciphertext>`. Each value is bound to where it lives
 * (its table, column and row id, as additional authenticated data), so a sealed value copied into
 * another row does not open. A database dump or backup alone then yields no key and no secret.
 */
export const SEALED_PREFIX = 'enc:v1:';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export type SecretBox = {
  seal: (plaintext: string, context: string) => string;
  /** Opens a sealed value; a value stored before encryption (no prefix) is returned as it is, with `sealed: false`, for the caller to re-seal. */
  open: (stored: string, context: string) => { plaintext: string; sealed: boolean };
};

export const isSealed = (stored: string): boolean => stored.startsWith(SEALED_PREFIX);

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== KEY_BYTES) throw new Error(`the secret key must be ${KEY_BYTES} bytes`);
  return {
    seal: (plaintext, context) => {
      const iv = crypto.randomBytes(IV_BYTES);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url');
    },
    open: (stored, context) => {
      if (!isSealed(stored)) return { plaintext: stored, sealed: false };
      const raw = Buffer.from(stored.slice(SEALED_PREFIX.length), 'base64url');
      try {
        const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        return { plaintext: Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8'), sealed: true };
      } catch {
        throw new Error(
          `A secret stored in the database (${context}) does not open with this installation's secret key: PARLEY_SECRET_KEY (or $DATA_DIR/secret.key) is not the key it was sealed with`,
        );
      }
    },
  };
}

/** `PARLEY_SECRET_KEY` as 32 bytes: base64 (44 characters, `openssl rand -base64 32`) or hex (64). Undefined when it is neither. */
export function decodeSecretKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-f]{64}$/i.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) {
    const key = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (key.length === KEY_BYTES) return key;
  }
  return undefined;
}

export const SECRET_KEY_FILE = 'secret.key';

/**
 * The installation's key: PARLEY_SECRET_KEY when set (config checked its form), else
 * `$DATA_DIR/secret.key`, generated 0600 on first start. Every process of one installation must
 * use the same key (set PARLEY_SECRET_KEY when web and worker processes do not share a DATA_DIR).
 */
export function loadSecretKey(options: { secretKey: string | undefined; dataDir: string }): Buffer {
  if (options.secretKey !== undefined) {
    const key = decodeSecretKey(options.secretKey);
    if (!key) throw new Error('PARLEY_SECRET_KEY must be 32 bytes as base64 or hex (openssl rand -base64 32)');
    return key;
  }
  const file = path.join(options.dataDir, SECRET_KEY_FILE);
  if (!fs.existsSync(file)) {
    // Written whole under a temporary name, then linked into place: the link fails if another
    // process got there first, and nobody ever reads a half-written key.
    const temporary = `${file}.${process.pid}.${crypto.randomUUID()}`;
    fs.writeFileSync(temporary, `${crypto.randomBytes(KEY_BYTES).toString('base64')}\n`, { flag: 'wx', mode: PRIVATE_FILE_MODE });
    try {
      fs.linkSync(temporary, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(temporary, { force: true });
    }
  }
  const key = decodeSecretKey(fs.readFileSync(file, 'utf8'));
  if (!key) throw new Error(`${file} does not hold a 32-byte key (base64): restore it from a backup, or set PARLEY_SECRET_KEY`);
  return key;
}
