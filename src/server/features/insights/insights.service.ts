import type { AnalyticsQuery, AnalyticsResponse, InsightsResponse } from '#shared/contracts/insights.ts';
import type { Db } from '#server/db/create-db.ts';
import type { MeetingsService } from '../meetings/meetings.service.ts';
import type { NotesService } from '../notes/notes.service.ts';
import { buildAnalytics } from './analytics.ts';
import { activitySince, meetingInsightsOf } from './insights.repository.ts';

/** /insights and /analytics: aggregates over the meetings the caller may read and their notes. */
export type InsightsService = ReturnType<typeof createInsightsService>;

export function createInsightsService(deps: { db: Db; meetings: MeetingsService; notes: NotesService; now?: () => Date }) {
  const { db, meetings } = deps;
  const now = deps.now ?? (() => new Date());
  return {
    /** Sentiment and participation from the meetings' transcripts, topics and action items from their notes. */
    insights: async (userId: string): Promise<InsightsResponse> => {
      const [meetingSide, topics, actionItems] = await Promise.all([
        meetings.views(userId).then((views) => meetingInsightsOf(db, views)),
        deps.notes.topics(userId),
        deps.notes.actionItems(userId),
      ]);
      return { ...(await meetings.nameSharers(meetingSide)), topics, actionItems };
    },
    analytics: async (userId: string, query: AnalyticsQuery): Promise<AnalyticsResponse> => {
      const views = await meetings.views(userId);
      return buildAnalytics((since) => activitySince(db, views, since), query, now());
    },
  };
}
