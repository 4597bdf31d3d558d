import { z } from 'zod/mini';

/**
 * The live transcript while recording (WebSocket at /realtime/live). The first message is JSON and
 * authenticates for one meeting in status `recording`; after it, binary messages carry 16 kHz signed
 * 16-bit little-endian PCM, one channel per capture source of the meeting, interleaved (microphone
 * first, then a shared tab); the server answers with recognised lines a few seconds behind.
 */
export const LIVE_PATH = '/realtime/live';
export const LIVE_SAMPLE_RATE = 16_000;
/** One channel per capture source: the microphone, and a shared tab's audio when added. */
export const LIVE_MAX_CHANNELS = 2;

export const LiveAuthMessageSchema = z.object({
  type: z.literal('auth'),
  accessToken: z.string().check(z.minLength(1), z.maxLength(8192)),
  meetingId: z.uuid(),
  /** Interleaved channels in the audio; must match the meeting's capture sources (1 without any). */
  channels: z._default(z.number().check(z.int(), z.gte(1), z.lte(LIVE_MAX_CHANNELS)), 1),
  /** Recording time (pauses excluded) already behind this session, e.g. after a reconnection. */
  offsetMs: z._default(z.number().check(z.int(), z.nonnegative(), z.lte(24 * 3600 * 1000)), 0),
});
export type LiveAuthMessage = z.input<typeof LiveAuthMessageSchema>;

/**
 * After `ready`: `pause` when the person pauses (the utterance in progress is finished at once and
 * the session may stay quiet); audio arriving again is the resume.
 */
export const LiveControlMessageSchema = z.object({ type: z.literal('pause') });

export const LiveClientMessageSchema = z.discriminatedUnion('type', [LiveAuthMessageSchema, LiveControlMessageSchema]);
export type LiveClientMessage = z.input<typeof LiveClientMessageSchema>;

export const LiveLineSchema = z.object({
  /** Milliseconds of recording (pauses excluded) from the start. */
  startMs: z.number().check(z.int(), z.nonnegative()),
  endMs: z.number().check(z.int(), z.nonnegative()),
  text: z.string(),
  /** The line's source: "You" for the microphone, "Shared tab" for a call's tab recorded next to it. */
  speaker: z.string(),
});
export type LiveLine = z.infer<typeof LiveLineSchema>;

export const LiveServerMessageSchema = z.discriminatedUnion('type', [
  /** Listening; `speakers` names each channel's lines, in channel order. */
  z.object({ type: z.literal('ready'), speakers: z._default(z.array(z.string()), ['You']) }),
  /**
   * Every recogniser of the server is busy: this session is in line (`position` 1 is next) and
   * becomes `ready` when one frees. Audio sent meanwhile keeps the recording's clock but is not heard.
   */
  z.object({ type: z.literal('waiting'), position: z.number().check(z.int(), z.positive()) }),
  z.object({ type: z.literal('line'), line: LiveLineSchema }),
  z.object({ type: z.literal('error'), message: z.string() }),
]);
export type LiveServerMessage = z.infer<typeof LiveServerMessageSchema>;

/** Close codes beyond the standard ones. */
export const LIVE_CLOSE = { unauthenticated: 4401, planLimit: 4403, notFound: 4404, idle: 4408, busy: 4429, badMessage: 4400, unavailable: 4503 } as const;
