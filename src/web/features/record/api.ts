import { queryOptions } from '@tanstack/react-query';
import { meetingEndpoints, type CreateMeetingBody, type ImportTranscriptBody, type UpdateMeetingBody } from '#shared/contracts/meetings.ts';
import { shareEndpoints } from '#shared/contracts/sharing.ts';
import { calendarEndpoints } from '#shared/contracts/calendar.ts';
import { api } from '#web/lib/api-client.ts';
import { CALENDAR_DATA_KEY } from '#web/lib/query-keys.ts';

export const createMeeting = (body: CreateMeetingBody) => api(meetingEndpoints.create, { body });

/** A transcript file (WebVTT, SRT, plain text) as a new meeting without audio. */
export const importTranscript = (body: ImportTranscriptBody) => api(meetingEndpoints.import, { body });

export const updateMeeting = (id: string, body: UpdateMeetingBody) => api(meetingEndpoints.update, { params: { id }, body });

/** The Auto-Share option: a share link made as the meeting is saved. */
export const createShareLink = (meetingId: string) => api(shareEndpoints.create, { params: { id: meetingId } });

/** A calendar event recorded from the dashboard (`/record?event=`): its title and attendees fill the page. */
export const calendarEventOptions = (eventId: string) =>
  queryOptions({
    queryKey: [...CALENDAR_DATA_KEY, 'event', eventId],
    queryFn: ({ signal }) => api(calendarEndpoints.event, { params: { id: eventId } }, { signal }),
    staleTime: 60_000,
  });

/** Links the new meeting to its calendar event: the event's attendees become its participants. */
export const linkMeetingToEvent = (eventId: string, meetingId: string) => api(calendarEndpoints.linkMeeting, { params: { id: eventId }, body: { meetingId } });
