import type { CreateMeetingBody, MeetingDetail, UpdateMeetingBody } from '#shared/contracts/meetings.ts';
import type { CreatedShareLink } from '#shared/contracts/sharing.ts';
import { api } from '#web/lib/api-client.ts';
import { loadSupabase } from '#web/lib/supabase.ts';

export const createMeeting = (body: CreateMeetingBody) => api<MeetingDetail>('/meetings', { method: 'POST', body });

export const updateMeeting = (id: string, body: UpdateMeetingBody) => api<MeetingDetail>(`/meetings/${id}`, { method: 'PATCH', body });

/** The current access token for the upload requests (refreshed by supabase-js when due). */
export async function accessToken(): Promise<string | undefined> {
  const { data } = await (await loadSupabase()).auth.getSession();
  return data.session?.access_token;
}

/** The Auto-Share option: a share link made as the meeting is saved. */
export const createShareLink = (meetingId: string) => api<CreatedShareLink>(`/meetings/${meetingId}/share`, { method: 'POST' });
