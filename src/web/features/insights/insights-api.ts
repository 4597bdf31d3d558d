import { useQuery } from '@tanstack/react-query';
import type { AnalyticsResponse, InsightsResponse } from '#shared/contracts/insights.ts';
import { api } from '#web/lib/api-client.ts';

// Keys live under 'meetings' so any change to a meeting (rename, edit, delete) refreshes them too.
export const useInsights = () =>
  useQuery({ queryKey: ['meetings', 'insights'], queryFn: ({ signal }) => api<InsightsResponse>('/insights', { signal }) });

export const useAnalytics = (weeks: number) => {
  const tzOffset = new Date().getTimezoneOffset();
  return useQuery({
    queryKey: ['meetings', 'analytics', weeks, tzOffset],
    queryFn: ({ signal }) => api<AnalyticsResponse>(`/analytics?weeks=${weeks}&tzOffset=${tzOffset}`, { signal }),
  });
};
