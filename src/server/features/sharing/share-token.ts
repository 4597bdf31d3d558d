import crypto from 'node:crypto';

/**
 * Share tokens: 32 random bytes (256 bits, unguessable) as base64url. Only their SHA-256 is stored;
 * a fast hash is right here because the token has full entropy, unlike a password.
 */
export const newShareToken = (): string => crypto.randomBytes(32).toString('base64url');

export const hashShareToken = (token: string): string => crypto.createHash('sha256').update(token, 'utf8').digest('hex');
