import crypto from 'node:crypto';

/**
 * Opaque bearer tokens in links (share links, team invitations): 32 random bytes (256 bits,
 * unguessable) as base64url. Only their SHA-256 is stored; a fast hash is right here because the
 * token has full entropy, unlike a password.
 */
export const newOpaqueToken = (): string => crypto.randomBytes(32).toString('base64url');

export const hashOpaqueToken = (token: string): string => crypto.createHash('sha256').update(token, 'utf8').digest('hex');
