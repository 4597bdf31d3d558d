import { z } from 'zod';
import { SEALED_PREFIX, type SecretBox } from '#server/lib/secret-box.ts';

/**
 * Short-lived links to one meeting's recording, for the player's <audio> element, which streams
 * with Range requests but cannot send the bearer token. The token is sealed with the installation
 * key (AES-GCM, bound to the meeting as associated data), so it can be neither forged nor moved to
 * another meeting, and it names the person and the sign-in session it was issued to: each request
 * still reads the meeting as that person, so a deleted meeting or lost access answers 404 even
 * within the link's minutes, and the route checks that the session is still signed in, so signing
 * out (on this device or everywhere) ends the link at once.
 */
export const AUDIO_LINK_TTL_MS = 10 * 60 * 1000;

const PayloadSchema = z.object({ userId: z.string().min(1), sessionId: z.string().min(1), expiresAt: z.number().int() });

const contextOf = (meetingId: string) => `audio-link:${meetingId}`;

export type LinkHolder = { userId: string; sessionId: string };

export type AudioLinks = {
  issue: (meetingId: string, holder: LinkHolder) => { token: string; expiresAt: Date };
  /** The person and session a token was issued to, or undefined when it is forged, another meeting's or expired. */
  verify: (meetingId: string, token: string) => LinkHolder | undefined;
};

export function createAudioLinks(secrets: SecretBox, now: () => Date): AudioLinks {
  return {
    issue: (meetingId, { userId, sessionId }) => {
      const expiresAt = new Date(now().getTime() + AUDIO_LINK_TTL_MS);
      const sealed = secrets.seal(JSON.stringify({ userId, sessionId, expiresAt: expiresAt.getTime() }), contextOf(meetingId));
      // The sealed form is base64url after its prefix: URL-safe as it is.
      return { token: sealed.slice(SEALED_PREFIX.length), expiresAt };
    },
    verify: (meetingId, token) => {
      let plaintext: string;
      try {
        plaintext = secrets.open(SEALED_PREFIX + token, contextOf(meetingId)).plaintext;
      } catch {
        return undefined; // forged, damaged or for another meeting: no link
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(plaintext);
      } catch {
        return undefined; // sealed by us but not a link's payload: no link
      }
      const payload = PayloadSchema.safeParse(parsed);
      if (!payload.success || payload.data.expiresAt <= now().getTime()) return undefined;
      return { userId: payload.data.userId, sessionId: payload.data.sessionId };
    },
  };
}
