import { z } from 'zod/mini';
import { defineEndpoint } from './endpoint.ts';
import { ActionItemSchema, MeetingRefSchema } from './insights.ts';

/**
 * Notes across meetings: the action-item tracker (/insights › Action Items: open, done, dismissed,
 * overdue; later moments that talked about an item again, each asking "done or slipped?") and the
 * decision register (every decision, searchable, with the later decisions that supersede it).
 * Ticking an item done stays `notesEndpoints.updateItem`: every tracked item carries its meeting.
 */

const page = z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(10_000)), 1);
const pageSize = z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 25);

/** `overdue`: open with a due date before today in the person's time zone; `all`: every status. */
export const TRACKER_STATUSES = ['open', 'done', 'dismissed', 'overdue', 'all'] as const;
export const TrackerStatusSchema = z.enum(TRACKER_STATUSES);
export type TrackerStatus = z.infer<typeof TrackerStatusSchema>;

/** The `assignee` filter's value for items nobody owns. */
export const UNASSIGNED = 'unassigned';

export const MENTION_RESOLUTIONS = ['done', 'slipped'] as const;
export const MentionResolutionSchema = z.enum(MENTION_RESOLUTIONS);
export type MentionResolution = z.infer<typeof MentionResolutionSchema>;

/** A later meeting's moment that talked about an open item again. */
export const ActionItemMentionSchema = z.object({
  id: z.uuid(),
  meeting: MeetingRefSchema,
  segmentId: z.uuid(),
  startMs: z.number().check(z.int(), z.nonnegative()),
  /** What was said there (the segment's words). */
  text: z.string(),
  /** The person's answer to "done or slipped?"; null until they answer. */
  resolution: z.nullable(MentionResolutionSchema),
});
export type ActionItemMention = z.infer<typeof ActionItemMentionSchema>;

export const TrackedActionItemSchema = z.extend(ActionItemSchema, {
  /** The transcript segments it comes from, in transcript order. */
  segmentIds: z.array(z.uuid()),
  /** Open, with a due date before today in the person's time zone. */
  overdue: z.boolean(),
  /** Oldest meeting first. */
  mentions: z.array(ActionItemMentionSchema),
});
export type TrackedActionItem = z.infer<typeof TrackedActionItemSchema>;

export const ActionItemsQuerySchema = z.object({
  status: z._default(TrackerStatusSchema, 'open'),
  /** An assignee's exact name, or `unassigned`. */
  assignee: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
  meetingId: z.optional(z.uuid()),
  page,
  pageSize,
});
export type ActionItemsQuery = z.infer<typeof ActionItemsQuerySchema>;

const count = z.number().check(z.int(), z.nonnegative());

export const ActionItemsResponseSchema = z.object({
  /** Newest meeting first, then in the order of their meeting's notes. */
  items: z.array(TrackedActionItemSchema),
  total: count,
  page: z.number().check(z.int()),
  pageSize: z.number().check(z.int()),
  /** Per status under the assignee and meeting filters (overdue items are also open). */
  counts: z.object({ open: count, done: count, dismissed: count, overdue: count }),
  /** Everyone who owns one of the person's action items, for the filter (A to Z). */
  assignees: z.array(z.string()),
  /** The person's meetings that have action items, for the filter (newest first). */
  meetings: z.array(MeetingRefSchema),
});
export type ActionItemsResponse = z.infer<typeof ActionItemsResponseSchema>;

export const MentionParamsSchema = z.object({ itemId: z.uuid(), mentionId: z.uuid() });
/** "Done or slipped?": done ticks the item done; slipped keeps it open. */
export const AnswerMentionBodySchema = z.object({ resolution: MentionResolutionSchema });

/** A decision as another decision's link shows it. */
export const DecisionRefSchema = z.object({
  id: z.uuid(),
  text: z.string(),
  meeting: MeetingRefSchema,
  startMs: z.number().check(z.int(), z.nonnegative()),
});
export type DecisionRef = z.infer<typeof DecisionRefSchema>;

/** One "supersedes" link seen from one of its ends: the link to answer, and the decision at its other end. */
export const DecisionLinkSchema = z.object({ linkId: z.uuid(), decision: DecisionRefSchema });
export type DecisionLink = z.infer<typeof DecisionLinkSchema>;

export const DecisionSchema = z.extend(DecisionRefSchema, {
  segmentIds: z.array(z.uuid()),
  /** Earlier decisions this one replaces (confirmed by the person). */
  supersedes: z.array(DecisionLinkSchema),
  /** Later decisions that replace this one (confirmed by the person). */
  supersededBy: z.array(DecisionLinkSchema),
  /** Earlier decisions on the same subject this one may replace: the person confirms or rejects each. */
  suggestedSupersedes: z.array(DecisionLinkSchema),
});
export type Decision = z.infer<typeof DecisionSchema>;

export const DecisionsQuerySchema = z.object({
  /** Plain words, all of which must appear (any case) in the decision or its meeting's title. */
  q: z.optional(z.string().check(z.trim(), z.maxLength(200))),
  meetingId: z.optional(z.uuid()),
  page,
  pageSize,
});
export type DecisionsQuery = z.infer<typeof DecisionsQuerySchema>;

export const DecisionsResponseSchema = z.object({
  /** Newest meeting first, then in the order of their meeting's notes; dismissed decisions left out. */
  items: z.array(DecisionSchema),
  total: count,
  page: z.number().check(z.int()),
  pageSize: z.number().check(z.int()),
});
export type DecisionsResponse = z.infer<typeof DecisionsResponseSchema>;

export const DECISION_LINK_ANSWERS = ['confirmed', 'rejected'] as const;
export const DecisionLinkParamsSchema = z.object({ linkId: z.uuid() });
export const AnswerDecisionLinkBodySchema = z.object({ status: z.enum(DECISION_LINK_ANSWERS) });
export type DecisionLinkAnswer = z.infer<typeof AnswerDecisionLinkBodySchema>['status'];

const tag = 'tracker';

export const trackerEndpoints = {
  actionItems: defineEndpoint({
    method: 'GET',
    path: '/api/v1/action-items',
    query: ActionItemsQuerySchema,
    response: ActionItemsResponseSchema,
    tag,
    summary: 'The action items of all the caller’s meetings, by status, assignee and meeting',
  }),
  answerMention: defineEndpoint({
    method: 'POST',
    path: '/api/v1/action-items/:itemId/mentions/:mentionId',
    params: MentionParamsSchema,
    body: AnswerMentionBodySchema,
    response: TrackedActionItemSchema,
    tag,
    summary: 'Answer “done or slipped?” for a later meeting’s mention of an item',
  }),
  decisions: defineEndpoint({
    method: 'GET',
    path: '/api/v1/decisions',
    query: DecisionsQuerySchema,
    response: DecisionsResponseSchema,
    tag,
    summary: 'The decision register: every decision of the caller’s meetings, searchable',
  }),
  answerDecisionLink: defineEndpoint({
    method: 'PATCH',
    path: '/api/v1/decisions/links/:linkId',
    params: DecisionLinkParamsSchema,
    body: AnswerDecisionLinkBodySchema,
    response: DecisionSchema,
    tag,
    summary: 'Confirm or reject that a later decision supersedes an earlier one',
  }),
};
