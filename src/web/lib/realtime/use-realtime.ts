import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import {
  REALTIME_CLOSE_INSUFFICIENT_AAL,
  REALTIME_PATH,
  RealtimeServerMessageSchema,
  type MeetingNotesEvent,
  type MeetingProgressEvent,
} from '#shared/contracts/realtime.ts';
import { useAccessToken } from '../auth/access-token.ts';
import { DATA_EXPORT_KEY, MEETING_DATA_KEY, NOTIFICATIONS_KEY, TEAM_DATA_KEY } from '../query-keys.ts';
import { usePresenceHeartbeat } from './use-presence.ts';
import { notesStore, progressStore, type NotesNews } from './realtime-store.ts';

/** Spec §9: reconnect after 1, 2, 5, then every 10 seconds; a heartbeat every 30 seconds. */
const RECONNECT_DELAYS_MS = [1000, 2000, 5000, 10_000];
const HEARTBEAT_MS = 30_000;

const parseMessage = (data: unknown) => {
  try {
    return RealtimeServerMessageSchema.safeParse(JSON.parse(String(data)));
  } catch {
    return undefined; // not JSON: ignored like any message this client does not know
  }
};

/**
 * One WebSocket per signed-in tab to /realtime: authenticates with the current access token,
 * keeps each meeting's newest progress and notes state in stores, refreshes meeting data when a
 * transcription or its notes change state, refreshes a team's data when the team changes, and reconnects with backoff (and with the new token after a refresh).
 */
export function useRealtimeConnection(): void {
  // The other half of being "here" for one's teams: the socket brings their changes, the heartbeat says this person is online.
  usePresenceHeartbeat();
  const token = useAccessToken();
  const queryClient = useQueryClient();

  useEffect(() => {
    if (!token) return;
    let socket: WebSocket | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let heartbeat: ReturnType<typeof setInterval> | undefined;
    let attempt = 0;
    let closed = false;

    const onNotes = (event: MeetingNotesEvent) => {
      const previous = notesStore.get(event.meetingId)?.event.notes.status;
      notesStore.set({ meetingId: event.meetingId, event, receivedAt: Date.now() });
      // Part N of M changes only the state line; a new state (or a settled one) brings new items and a summary.
      const underWay = event.notes.status === 'queued' || event.notes.status === 'running';
      if (previous !== event.notes.status || !underWay) void queryClient.invalidateQueries({ queryKey: MEETING_DATA_KEY });
    };

    const connect = () => {
      const url = `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}${REALTIME_PATH}`;
      socket = new WebSocket(url);
      socket.onopen = () => {
        socket?.send(JSON.stringify({ type: 'auth', accessToken: token }));
        // Proxies close idle sockets; a ping now and then keeps this one open.
        heartbeat = setInterval(() => socket?.readyState === WebSocket.OPEN && socket.send(JSON.stringify({ type: 'ping' })), HEARTBEAT_MS);
      };
      socket.onmessage = (message) => {
        const parsed = parseMessage(message.data);
        if (!parsed?.success) return;
        const data = parsed.data;
        if (data.type === 'ready') {
          attempt = 0;
          // Events reach this tab only from now on. What it read before (the page's first lists, read
          // while the socket was still connecting, or before a drop) misses any change made in between
          // — a meeting shared with the person a moment after their history loaded stayed out of it —
          // so meetings, teams and notifications are read afresh: once per socket, not per event.
          void queryClient.invalidateQueries({ queryKey: MEETING_DATA_KEY });
          void queryClient.invalidateQueries({ queryKey: TEAM_DATA_KEY });
          void queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY });
        }
        if (data.type === 'meeting.notes') {
          onNotes(data);
          return;
        }
        if (data.type === 'notification') {
          // The bell reads its list (and the unread count) afresh.
          void queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY });
          return;
        }
        if (data.type === 'team.changed') {
          // Members, roles, availability, activity or the meetings shared with the team: the person's
          // teams, that team's page, and their meeting lists (a meeting shared or no longer readable).
          void queryClient.invalidateQueries({ queryKey: [...TEAM_DATA_KEY, 'list'] });
          void queryClient.invalidateQueries({ queryKey: [...TEAM_DATA_KEY, data.teamId] });
          void queryClient.invalidateQueries({ queryKey: MEETING_DATA_KEY });
          return;
        }
        if (data.type === 'account.export') {
          // The export's progress and its end come with the latest export, read afresh.
          void queryClient.invalidateQueries({ queryKey: DATA_EXPORT_KEY });
          return;
        }
        if (data.type !== 'meeting.progress') return;
        const previous = progressStore.get(data.meetingId);
        progressStore.set(data);
        // A new status changes lists, counts and the meeting itself: refetch what shows meetings.
        if (previous?.status !== data.status || data.status !== 'processing') void queryClient.invalidateQueries({ queryKey: MEETING_DATA_KEY });
      };
      socket.onclose = (event) => {
        clearInterval(heartbeat);
        // A new token reconnects through this effect (after a refresh, or once the MFA challenge is passed).
        if (closed || event.code === 4401 || event.code === REALTIME_CLOSE_INSUFFICIENT_AAL) return;
        retry = setTimeout(connect, RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)]);
        attempt += 1;
      };
    };
    connect();
    return () => {
      closed = true;
      clearTimeout(retry);
      clearInterval(heartbeat);
      socket?.close();
    };
  }, [token, queryClient]);

  useEffect(
    () => () => {
      progressStore.clear();
      notesStore.clear();
    },
    [],
  );
}

/** The newest progress of one meeting's transcription, while this tab has seen any. */
export function useMeetingProgress(meetingId: string): MeetingProgressEvent | undefined {
  return useSyncExternalStore(progressStore.subscribe, () => progressStore.get(meetingId));
}

/** The newest notes state of one meeting this tab has heard of, with when it arrived. */
export function useMeetingNotesNews(meetingId: string): NotesNews | undefined {
  return useSyncExternalStore(notesStore.subscribe, () => notesStore.get(meetingId));
}
