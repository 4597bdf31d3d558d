import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MeetingDetail, MeetingListQuery, MeetingListResponse, MeetingStats } from '#shared/contracts/meetings.ts';
import { api } from '#web/lib/api-client.ts';

/** Query keys and fetchers for /api/v1/meetings, shared by every screen that shows meetings. */
export const meetingKeys = {
  all: ['meetings'] as const,
  list: (query: Partial<MeetingListQuery>) => ['meetings', 'list', query] as const,
  detail: (id: string) => ['meetings', 'detail', id] as const,
};

function toSearch(query: Partial<MeetingListQuery>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const meetingListOptions = (query: Partial<MeetingListQuery>) =>
  queryOptions({
    queryKey: meetingKeys.list(query),
    queryFn: ({ signal }) => api<MeetingListResponse>(`/meetings${toSearch(query)}`, { signal }),
    placeholderData: keepPreviousData,
  });

export const meetingDetailOptions = (id: string) =>
  queryOptions({ queryKey: meetingKeys.detail(id), queryFn: ({ signal }) => api<MeetingDetail>(`/meetings/${id}`, { signal }) });

export const useMeetings = (query: Partial<MeetingListQuery>) => useQuery(meetingListOptions(query));

export function useDeleteMeeting() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<{ deleted: number }>(`/meetings/${id}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: meetingKeys.all }),
  });
}

export function useRemoveSamples() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<{ deleted: number }>('/meetings/samples', { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: meetingKeys.all }),
  });
}

export const useMeetingStats = () =>
  useQuery({ queryKey: ['meetings', 'stats'], queryFn: ({ signal }) => api<MeetingStats>('/meetings/stats', { signal }) });
