import crypto from 'node:crypto';
import { EmailChoiceSchema, type EmailChoice } from '#shared/contracts/notifications.ts';

/**
 * Unsubscribe links' tokens: `u1.<person>.<choice>.<key id>.<HMAC-SHA256>`, signed with a key derived
 * from the installation's secret key (HKDF, so the sealing key itself signs nothing). They never
 * expire — an email read months later must still unsubscribe — but they are revocable: each names
 * the person's current key id (notification_unsubscribe_keys), and a link with another is refused.
 */
const VERSION = 'u1';

export type UnsubscribeClaim = { userId: string; choice: EmailChoice; keyId: string };

export type UnsubscribeTokens = {
  sign: (claim: UnsubscribeClaim) => string;
  /** The claim of a token whose signature holds, or undefined for anything forged, altered or malformed. */
  read: (token: string) => UnsubscribeClaim | undefined;
};

export function createUnsubscribeTokens(secretKey: Buffer): UnsubscribeTokens {
  const key = Buffer.from(crypto.hkdfSync('sha256', secretKey, Buffer.alloc(0), 'parley unsubscribe links', 32));
  const macOf = (payload: string) => crypto.createHmac('sha256', key).update(payload).digest();
  return {
    sign: ({ userId, choice, keyId }) => {
      const payload = [VERSION, userId, choice, keyId].join('.');
      return `${payload}.${macOf(payload).toString('base64url')}`;
    },
    read: (token) => {
      const parts = token.split('.');
      if (parts.length !== 5 || parts[0] !== VERSION) return undefined;
      const [, userId, choice, keyId, mac] = parts as [string, string, string, string, string];
      const given = Buffer.from(mac, 'base64url');
      const expected = macOf(parts.slice(0, 4).join('.'));
      if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return undefined;
      const parsed = EmailChoiceSchema.safeParse(choice);
      if (!parsed.success || !/^[0-9a-f-]{36}$/.test(userId)) return undefined;
      return { userId, choice: parsed.data, keyId };
    },
  };
}
