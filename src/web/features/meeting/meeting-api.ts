import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MeetingDetail } from '#shared/contracts/meetings.ts';
import { api } from '#web/lib/api-client.ts';
import { loadSupabase } from '#web/lib/supabase.ts';
import { meetingDetailOptions, meetingKeys } from '../meetings/meetings-api.ts';

export const useMeeting = (id: string) =>
  useQuery({
    ...meetingDetailOptions(id),
    // While the server is still transcribing, look again every few seconds.
    refetchInterval: (query) => (query.state.data?.status === 'processing' ? 4000 : false),
  });

export const useDemoMeeting = () => useQuery({ queryKey: ['demo-meeting'], queryFn: ({ signal }) => api<MeetingDetail>('/demo/meeting', { signal }), staleTime: Infinity });

/** The recording as a Blob (the API wants the bearer token, which an audio element cannot send). */
export const useMeetingAudio = (id: string, enabled: boolean) =>
  useQuery({
    queryKey: ['meetings', 'audio', id],
    enabled,
    staleTime: Infinity,
    queryFn: async ({ signal }) => {
      const { data } = await (await loadSupabase()).auth.getSession();
      const response = await fetch(`/api/v1/meetings/${id}/audio`, { headers: { authorization: `Bearer ${data.session?.access_token ?? ''}` }, signal });
      if (!response.ok) throw new Error('The recording could not be loaded.');
      return response.blob();
    },
  });

export function useMeetingEdits(id: string) {
  const client = useQueryClient();
  const onSuccess = (meeting: MeetingDetail) => {
    client.setQueryData(meetingKeys.detail(id), meeting);
    void client.invalidateQueries({ queryKey: ['meetings', 'list'] });
  };
  return {
    rename: useMutation({ mutationFn: (title: string) => api<MeetingDetail>(`/meetings/${id}`, { method: 'PATCH', body: { title } }), onSuccess }),
    editLine: useMutation({
      mutationFn: (input: { segmentId: string; text: string }) => api<MeetingDetail>(`/meetings/${id}/segments/${input.segmentId}`, { method: 'PATCH', body: { text: input.text } }),
      onSuccess,
    }),
    renameSpeaker: useMutation({
      mutationFn: (input: { speakerId: string; displayName: string }) =>
        api<MeetingDetail>(`/meetings/${id}/speakers/${input.speakerId}`, { method: 'PATCH', body: { displayName: input.displayName } }),
      onSuccess,
    }),
  };
}
