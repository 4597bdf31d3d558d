import { z } from 'zod/mini';
import { defineEndpoint } from './endpoint.ts';
import { ItemStatusSchema } from './notes.ts';

/**
 * GET /api/v1/insights (spec §2 /insights: Topics, Sentiment, Participation, Action Items) and
 * GET /api/v1/analytics (meeting time, counts and talk time by week), both over the caller's meetings.
 */

/** The meeting an item comes from, as lists across meetings show it. */
export const MeetingRefSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  startedAt: z.string(),
  isSample: z.boolean(),
  /** A teammate's meeting (it reaches the reader through a team): its owner, for "Shared by <name>". Absent for the reader's own. */
  sharedBy: z.optional(z.object({ id: z.uuid(), name: z.string() })),
});
export type MeetingRef = z.infer<typeof MeetingRefSchema>;

export const TopicSchema = z.object({
  name: z.string(),
  meetings: z.number().check(z.int()),
  lastDiscussed: MeetingRefSchema,
});
export type Topic = z.infer<typeof TopicSchema>;

const SentimentMixSchema = z.object({ positive: z.number().check(z.int()), neutral: z.number().check(z.int()), negative: z.number().check(z.int()) });
export type SentimentMix = z.infer<typeof SentimentMixSchema>;

export const MeetingSentimentSchema = z.object({
  meeting: MeetingRefSchema,
  /** Mean turn score, -1..1. */
  score: z.number(),
  turns: SentimentMixSchema,
});
export type MeetingSentiment = z.infer<typeof MeetingSentimentSchema>;

export const SpeakerSentimentSchema = z.object({ speaker: z.string(), score: z.number(), turns: SentimentMixSchema });

export const ParticipantSchema = z.object({
  speaker: z.string(),
  talkSeconds: z.number(),
  /** Share of all talk time, 0..1. */
  share: z.number(),
  turns: z.number().check(z.int()),
  meetings: z.number().check(z.int()),
});
export type Participant = z.infer<typeof ParticipantSchema>;

export const ActionItemSchema = z.object({
  id: z.uuid(),
  text: z.string(),
  assignee: z.nullable(z.string()),
  /** The due date (YYYY-MM-DD), when one was said or set. */
  due: z.nullable(z.string()),
  /** The words it was read from ("by Friday"). */
  dueText: z.nullable(z.string()),
  status: ItemStatusSchema,
  /** Where in its meeting it was said. */
  startMs: z.number().check(z.int(), z.nonnegative()),
  meeting: MeetingRefSchema,
});
export type ActionItem = z.infer<typeof ActionItemSchema>;

export const InsightsResponseSchema = z.object({
  meetings: z.number().check(z.int()),
  topics: z.array(TopicSchema),
  sentiment: z.object({
    /** Meetings with "Anonymous Emotional Analysis" on and a transcript. */
    analysedMeetings: z.number().check(z.int()),
    overall: SentimentMixSchema,
    /** Oldest first, the most recent analysed meetings. */
    byMeeting: z.array(MeetingSentimentSchema),
    bySpeaker: z.array(SpeakerSentimentSchema),
  }),
  participation: z.object({ totalTalkSeconds: z.number(), speakers: z.array(ParticipantSchema) }),
  actionItems: z.array(ActionItemSchema),
});
export type InsightsResponse = z.infer<typeof InsightsResponseSchema>;

/** Unnamed speakers ("Speaker 1" in one meeting is not "Speaker 1" in the next) are counted together. */
export const UNNAMED_SPEAKERS = 'Unnamed speakers';

export const ANALYTICS_WEEK_CHOICES = [4, 12, 26, 52] as const;

export const AnalyticsQuerySchema = z.object({
  weeks: z._default(
    z.coerce.number().check(
      z.int(),
      z.refine((n) => (ANALYTICS_WEEK_CHOICES as readonly number[]).includes(n), 'weeks must be 4, 12, 26 or 52'),
    ),
    12,
  ),
  /** The browser's Date#getTimezoneOffset(), so weeks start on the person's Monday. */
  tzOffset: z._default(z.coerce.number().check(z.int(), z.gte(-840), z.lte(840)), 0),
});
export type AnalyticsQuery = z.infer<typeof AnalyticsQuerySchema>;

export const AnalyticsWeekSchema = z.object({
  /** Monday of the week, YYYY-MM-DD in the person's time zone. */
  weekStart: z.string(),
  meetings: z.number().check(z.int()),
  meetingMinutes: z.number(),
  talkMinutes: z.number(),
});
export type AnalyticsWeek = z.infer<typeof AnalyticsWeekSchema>;

export const AnalyticsResponseSchema = z.object({
  weeks: z.array(AnalyticsWeekSchema),
  totals: z.object({
    meetings: z.number().check(z.int()),
    meetingMinutes: z.number(),
    talkMinutes: z.number(),
    averageMeetingMinutes: z.number(),
  }),
});
export type AnalyticsResponse = z.infer<typeof AnalyticsResponseSchema>;

export const insightsEndpoints = {
  insights: defineEndpoint({ method: 'GET', path: '/api/v1/insights', response: InsightsResponseSchema, tag: 'insights' }),
  analytics: defineEndpoint({ method: 'GET', path: '/api/v1/analytics', query: AnalyticsQuerySchema, response: AnalyticsResponseSchema, tag: 'insights' }),
};
