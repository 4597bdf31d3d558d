import { queryOptions, useQuery } from '@tanstack/react-query';
import { insightsEndpoints } from '#shared/contracts/insights.ts';
import { api } from '#web/lib/api-client.ts';
import { MEETING_DATA_KEY } from '#web/lib/query-keys.ts';

// Under the meetings root so any change to a meeting (rename, edit, delete) refreshes them too.
export const insightKeys = {
  insights: () => [...MEETING_DATA_KEY, 'insights'] as const,
  analytics: (weeks: number, tzOffset: number) => [...MEETING_DATA_KEY, 'analytics', weeks, tzOffset] as const,
};

export const insightsOptions = () =>
  queryOptions({ queryKey: insightKeys.insights(), queryFn: ({ signal }) => api(insightsEndpoints.insights, {}, { signal }) });

/** `tzOffset`: the browser's Date#getTimezoneOffset(), so weeks start on the person's Monday. */
export const analyticsOptions = (weeks: number, tzOffset: number) =>
  queryOptions({
    queryKey: insightKeys.analytics(weeks, tzOffset),
    queryFn: ({ signal }) => api(insightsEndpoints.analytics, { query: { weeks, tzOffset } }, { signal }),
  });

export const useInsights = () => useQuery(insightsOptions());

export const useAnalytics = (weeks: number) => useQuery(analyticsOptions(weeks, new Date().getTimezoneOffset()));
