import { hashKey, keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { toast } from '#web/lib/toast.ts';
import { calendarEndpoints } from '#shared/contracts/calendar.ts';
import { meetingEndpoints, type AudioLink, type AudioPeaks, type MeetingDetail, type MeetingListQuery } from '#shared/contracts/meetings.ts';
import { notesEndpoints, type NotesResponse, type UpdateNoteItemBody } from '#shared/contracts/notes.ts';
import { api } from '#web/lib/api-client.ts';
import { ApiError } from '#web/lib/api-error.ts';
import { MEETING_DATA_KEY } from '#web/lib/query-keys.ts';

/** Query keys of the person's meetings: lists, one meeting, usage, the recording, the product tour. */
export const meetingKeys = {
  all: MEETING_DATA_KEY,
  lists: () => [...MEETING_DATA_KEY, 'list'] as const,
  list: (query: Partial<MeetingListQuery>) => [...MEETING_DATA_KEY, 'list', query] as const,
  detail: (id: string) => [...MEETING_DATA_KEY, 'detail', id] as const,
  stats: () => [...MEETING_DATA_KEY, 'stats'] as const,
  speakerNames: () => [...MEETING_DATA_KEY, 'speaker-names'] as const,
  // Under the meetings root: the earlier meetings' open action items change with their notes.
  calendar: (id: string) => [...MEETING_DATA_KEY, 'calendar', id] as const,
  // The recording's waveform. Not under the meetings root: a stored recording never changes, and
  // refreshing meeting data (each transcription stage, each notes state) must not work it out again.
  audio: (id: string) => ['meeting-audio', id] as const,
  // Not under the meetings root: the tour's sample never changes with the person's own meetings.
  demo: () => ['demo-meeting'] as const,
};

export const meetingListOptions = (query: Partial<MeetingListQuery>) =>
  queryOptions({
    queryKey: meetingKeys.list(query),
    queryFn: ({ signal }) => api(meetingEndpoints.list, { query }, { signal }),
    placeholderData: keepPreviousData,
  });

export const meetingDetailOptions = (id: string) =>
  queryOptions({ queryKey: meetingKeys.detail(id), queryFn: ({ signal }) => api(meetingEndpoints.get, { params: { id } }, { signal }) });

export const meetingStatsOptions = () => queryOptions({ queryKey: meetingKeys.stats(), queryFn: ({ signal }) => api(meetingEndpoints.stats, {}, { signal }) });

export const demoMeetingOptions = () =>
  queryOptions({ queryKey: meetingKeys.demo(), queryFn: ({ signal }) => api(meetingEndpoints.demo, {}, { signal }), staleTime: Infinity });

/**
 * The recording's waveform and decoded length, drawn while the audio itself streams. A waveform
 * that cannot be worked out is not worth a failed player: undefined, and the player draws none.
 */
export const meetingAudioPeaksOptions = (id: string) =>
  queryOptions({
    queryKey: meetingKeys.audio(id),
    staleTime: Infinity,
    retry: false,
    queryFn: async ({ signal }): Promise<AudioPeaks | null> => {
      try {
        return await api(meetingEndpoints.audioPeaks, { params: { id } }, { signal });
      } catch (error) {
        if (error instanceof ApiError && error.status > 0) return null;
        throw error;
      }
    },
  });

/**
 * A link to the recording for the player's <audio> element, valid for a few minutes: the element
 * streams with Range requests but cannot send the bearer token. Asked for again when it runs out.
 */
export const fetchAudioLink = (id: string): Promise<AudioLink> => api(meetingEndpoints.audioLink, { params: { id } });

/** The names the person has given speakers, offered when naming another. */
export const useSpeakerNames = (enabled: boolean) =>
  useQuery({
    queryKey: meetingKeys.speakerNames(),
    queryFn: ({ signal }) => api(meetingEndpoints.speakerNames, {}, { signal }),
    select: (answer) => answer.names,
    enabled,
  });

export const useMeetings = (query: Partial<MeetingListQuery>) => useQuery(meetingListOptions(query));

export const useMeetingStats = () => useQuery(meetingStatsOptions());

/**
 * Whether a new account's sample meetings are still being set up (a worker does it moments after
 * sign-up): the usage is asked again every second until they are there, then the meetings are read again.
 */
export function useSamplesSettingUp(): boolean {
  const client = useQueryClient();
  const { data } = useQuery({ ...meetingStatsOptions(), refetchInterval: (query) => (query.state.data?.samplesSettingUp ? 1000 : false) });
  const settingUp = data?.samplesSettingUp === true;
  const wasSettingUp = useRef(settingUp);
  useEffect(() => {
    if (wasSettingUp.current && !settingUp) void client.invalidateQueries({ queryKey: meetingKeys.all });
    wasSettingUp.current = settingUp;
  }, [settingUp, client]);
  return settingUp;
}

export const useMeeting = (id: string) =>
  useQuery({
    ...meetingDetailOptions(id),
    // While the server is still transcribing, look again every few seconds.
    refetchInterval: (query) => (query.state.data?.status === 'processing' ? 4000 : false),
  });

export const useDemoMeeting = () => useQuery(demoMeetingOptions());

export const useMeetingAudioPeaks = (id: string, enabled: boolean) => useQuery({ ...meetingAudioPeaksOptions(id), enabled });

/** The calendar event a meeting was recorded from, and the meetings of its series' earlier occurrences. */
export const useMeetingCalendar = (id: string) =>
  useQuery({ queryKey: meetingKeys.calendar(id), queryFn: ({ signal }) => api(calendarEndpoints.meetingCalendar, { params: { id } }, { signal }) });

export function useDeleteMeeting() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(meetingEndpoints.remove, { params: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: meetingKeys.all }),
  });
}

export function useRemoveSamples() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api(meetingEndpoints.removeSamples),
    onSuccess: () => client.invalidateQueries({ queryKey: meetingKeys.all }),
  });
}

export function useRetryTranscription(meetingId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api(meetingEndpoints.retry, { params: { id: meetingId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: meetingKeys.all }),
    // A refusal (the plan's hours used up) is shown beside the Retry button, where it stays.
  });
}

/**
 * Rename, correct a line, name, merge or reassign speakers: each answers the whole meeting, which
 * replaces the cached one; what else shows meetings (lists, the names offered, and insights'
 * participation, which counts who spoke) is read again.
 */
export function useMeetingEdits(id: string) {
  const client = useQueryClient();
  const onSuccess = (meeting: MeetingDetail) => {
    client.setQueryData(meetingKeys.detail(id), meeting);
    void client.invalidateQueries({ queryKey: meetingKeys.all, predicate: (query) => query.queryHash !== hashKey(meetingKeys.detail(id)) });
  };
  return {
    rename: useMutation({ mutationFn: (title: string) => api(meetingEndpoints.update, { params: { id }, body: { title } }), onSuccess }),
    editLine: useMutation({
      mutationFn: ({ segmentId, text }: { segmentId: string; text: string }) =>
        api(meetingEndpoints.updateSegment, { params: { id, segmentId }, body: { text } }),
      onSuccess,
    }),
    renameSpeaker: useMutation({
      mutationFn: ({ speakerId, displayName }: { speakerId: string; displayName: string }) =>
        api(meetingEndpoints.renameSpeaker, { params: { id, speakerId }, body: { displayName } }),
      onSuccess,
    }),
    mergeSpeaker: useMutation({
      mutationFn: ({ speakerId, intoSpeakerId }: { speakerId: string; intoSpeakerId: string }) =>
        api(meetingEndpoints.mergeSpeaker, { params: { id, speakerId }, body: { intoSpeakerId } }),
      onSuccess,
    }),
    moveLines: useMutation({
      mutationFn: ({ segmentIds, speakerId }: { segmentIds: string[]; speakerId: string }) =>
        api(meetingEndpoints.assignSegments, { params: { id }, body: { segmentIds, speakerId } }),
      onSuccess,
    }),
    /** A move undone in one change: each line back to its speaker, the speaker the move made removed once it has none. */
    restoreLines: useMutation({
      mutationFn: (body: { lines: { segmentId: string; speakerId: string }[]; removeSpeakerId?: string }) =>
        api(meetingEndpoints.restoreSegmentSpeakers, { params: { id }, body }),
      onSuccess,
    }),
    splitLine: useMutation({
      mutationFn: ({ segmentId, at }: { segmentId: string; at: number }) => api(meetingEndpoints.splitSegment, { params: { id, segmentId }, body: { at } }),
      onSuccess,
    }),
    undoCorrection: useMutation({
      mutationFn: (correctionId: string) => api(meetingEndpoints.undoCorrection, { params: { id, correctionId } }),
      onSuccess,
    }),
    joinLines: useMutation({
      mutationFn: ({ segmentId, nextSegmentId }: { segmentId: string; nextSegmentId: string }) =>
        api(meetingEndpoints.joinSegments, { params: { id, segmentId }, body: { nextSegmentId } }),
      onSuccess,
    }),
  };
}

/**
 * "Regenerate notes" and a person's edit, accept, tick, dismiss or restore of one item: each answers
 * the meeting's notes, which replace the cached meeting's; what else shows notes (lists' summaries,
 * counts, the tracker) is read again.
 */
export function useNotesEdits(id: string) {
  const client = useQueryClient();
  const onSuccess = (answer: NotesResponse) => {
    client.setQueryData(meetingKeys.detail(id), (meeting: MeetingDetail | undefined) => meeting && { ...meeting, ...answer });
    void client.invalidateQueries({ queryKey: meetingKeys.all, predicate: (query) => query.queryHash !== hashKey(meetingKeys.detail(id)) });
  };
  const onError = (error: Error) => toast.error(error.message);
  return {
    regenerate: useMutation({
      mutationFn: async () => ({ sentAt: Date.now(), answer: await api(notesEndpoints.regenerate, { params: { id } }) }),
      // The answer says "queued" as of the request; the job may already have written the notes (and
      // said so over the socket) before it arrives. Dated from when it was sent, a newer event still
      // wins, and the meeting is read again for the notes as they are now.
      onSuccess: ({ sentAt, answer }) => {
        client.setQueryData(meetingKeys.detail(id), (meeting: MeetingDetail | undefined) => meeting && { ...meeting, ...answer }, { updatedAt: sentAt });
        void client.invalidateQueries({ queryKey: meetingKeys.all });
      },
      onError,
    }),
    updateItem: useMutation({
      mutationFn: ({ itemId, body }: { itemId: string; body: UpdateNoteItemBody }) => api(notesEndpoints.updateItem, { params: { id, itemId }, body }),
      onSuccess,
      onError,
    }),
  };
}

/**
 * Shares the person's meeting with one of their teams, or makes it private again (null). The answer
 * is the whole meeting, which replaces the cached one; lists read again (their "Shared" marks).
 */
export function useShareWithTeam(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (teamId: string | null) => api(meetingEndpoints.update, { params: { id }, body: { teamId } }),
    onSuccess: (meeting) => {
      client.setQueryData(meetingKeys.detail(id), meeting);
      void client.invalidateQueries({ queryKey: meetingKeys.all, predicate: (query) => query.queryHash !== hashKey(meetingKeys.detail(id)) });
    },
  });
}
