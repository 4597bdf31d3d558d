import { z } from 'zod';

/**
 * The live transcript while recording (WebSocket at /realtime/live). The first message is JSON and
 * authenticates for one meeting in status `recording`; after it, binary messages carry 16 kHz mono
 * signed 16-bit little-endian PCM; the server answers with recognised lines a few seconds behind.
 */
export const LIVE_PATH = '/realtime/live';
export const LIVE_SAMPLE_RATE = 16_000;

export const LiveClientMessageSchema = z.object({
  type: z.literal('auth'),
  accessToken: z.string().min(1).max(8192),
  meetingId: z.uuid(),
});
export type LiveClientMessage = z.infer<typeof LiveClientMessageSchema>;

export const LiveLineSchema = z.object({
  /** Milliseconds of recording (pauses excluded) from the start. */
  startMs: z.number().int().nonnegative(),
  endMs: z.number().int().nonnegative(),
  text: z.string(),
  speaker: z.string(),
});
export type LiveLine = z.infer<typeof LiveLineSchema>;

export const LiveServerMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('line'), line: LiveLineSchema }),
  z.object({ type: z.literal('error'), message: z.string() }),
]);
export type LiveServerMessage = z.infer<typeof LiveServerMessageSchema>;

/** Close codes beyond the standard ones. */
export const LIVE_CLOSE = { unauthenticated: 4401, notFound: 4404, busy: 4429, badMessage: 4400, unavailable: 4503 } as const;
