import type { AnalyticsQuery, AnalyticsResponse, InsightsResponse } from '#shared/contracts/insights.ts';
import type { MeetingsService } from '../meetings/meetings.service.ts';
import type { NotesService } from '../notes/notes.service.ts';
import { buildAnalytics } from './analytics.ts';

/** /insights and /analytics: aggregates over the caller's own meetings and their notes. */
export type InsightsService = ReturnType<typeof createInsightsService>;

export function createInsightsService(deps: { meetings: MeetingsService; notes: NotesService; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  return {
    /** Sentiment and participation from the meetings' transcripts, topics and action items from their notes. */
    insights: async (ownerId: string): Promise<InsightsResponse> => {
      const [meetingSide, topics, actionItems] = await Promise.all([
        deps.meetings.insights(ownerId),
        deps.notes.topics(ownerId),
        deps.notes.actionItems(ownerId),
      ]);
      return { ...meetingSide, topics, actionItems };
    },
    analytics: (ownerId: string, query: AnalyticsQuery): Promise<AnalyticsResponse> =>
      buildAnalytics((since) => deps.meetings.activitySince(ownerId, since), query, now()),
  };
}
