import { z } from 'zod/mini';
import { defineEndpoint } from './endpoint.ts';
import { IdParamsSchema, SpeakerSchema, TranscriptSegmentSchema } from './meetings.ts';
import { InsightSchema, NotesStatusSchema, SummarySentencesSchema } from './notes.ts';

/**
 * Share links (/api/v1/meetings/:id/share and the public /api/v1/shared/:token): a revocable,
 * read-only view of one meeting for people without an account.
 */

/** 32 random bytes in base64url, unpadded: always 43 characters from this alphabet. */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const ShareTokenSchema = z.string().check(z.regex(SHARE_TOKEN_PATTERN, 'is not a share link token'));

export const ShareParamsSchema = z.object({ id: z.uuid(), shareId: z.uuid() });
export const SharedTokenParamsSchema = z.object({ token: ShareTokenSchema });

/** An active link as its owner sees it later: the token itself is never stored, so never shown again. */
export const ShareLinkSchema = z.object({
  id: z.uuid(),
  createdAt: z.string(),
});
export type ShareLink = z.infer<typeof ShareLinkSchema>;

export const ShareLinkListSchema = z.object({ items: z.array(ShareLinkSchema) });
export type ShareLinkList = z.infer<typeof ShareLinkListSchema>;

/** POST …/share: the one and only time the token (and the URL that carries it) is shown. */
export const CreatedShareLinkSchema = z.extend(ShareLinkSchema, {
  url: z.string(),
  token: ShareTokenSchema,
});
export type CreatedShareLink = z.infer<typeof CreatedShareLinkSchema>;

export const RevokedShareLinkSchema = z.object({ revoked: z.literal(true) });

/**
 * What a share link shows: the meeting's content only. No meeting, owner or account ids, no
 * emails, no recording options or audio.
 */
export const SharedMeetingSchema = z.object({
  title: z.string(),
  startedAt: z.string(),
  durationSeconds: z.number().check(z.int(), z.nonnegative()),
  participants: z.array(z.string()),
  summary: z.nullable(z.string()),
  /** The summary's sentences with the lines each was written from; null when it cites none (an edited summary). */
  summarySentences: SummarySentencesSchema,
  speakers: z.array(SpeakerSchema),
  segments: z.array(TranscriptSegmentSchema),
  /** The notes' items, without those the owner dismissed. */
  insights: z.array(InsightSchema),
  /**
   * Where the notes are, so a reader is told they are still being written or could not be made
   * rather than shown nothing. Only the status: the failure reason and engine are the owner's.
   */
  notes: z.object({ status: NotesStatusSchema }),
});
export type SharedMeeting = z.infer<typeof SharedMeetingSchema>;

export const shareEndpoints = {
  create: defineEndpoint({
    method: 'POST',
    path: '/api/v1/meetings/:id/share',
    params: IdParamsSchema,
    response: CreatedShareLinkSchema,
    status: 201,
    tag: 'sharing',
  }),
  list: defineEndpoint({ method: 'GET', path: '/api/v1/meetings/:id/share', params: IdParamsSchema, response: ShareLinkListSchema, tag: 'sharing' }),
  revoke: defineEndpoint({
    method: 'DELETE',
    path: '/api/v1/meetings/:id/share/:shareId',
    params: ShareParamsSchema,
    response: RevokedShareLinkSchema,
    tag: 'sharing',
  }),
  shared: defineEndpoint({
    method: 'GET',
    path: '/api/v1/shared/:token',
    params: SharedTokenParamsSchema,
    response: SharedMeetingSchema,
    auth: false,
    tag: 'sharing',
    summary: 'The meeting behind an active share link',
  }),
};
