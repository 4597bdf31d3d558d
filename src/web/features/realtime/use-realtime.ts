import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { REALTIME_PATH, RealtimeServerMessageSchema, type MeetingProgressEvent } from '#shared/contracts/realtime.ts';
import { useAuth } from '../auth/use-auth.ts';
import { progressStore } from './realtime-store.ts';

const MAX_BACKOFF_MS = 30_000;

/**
 * One WebSocket per signed-in tab to /realtime: authenticates with the current access token,
 * keeps each meeting's newest progress in a store, refreshes meeting data when a transcription
 * settles, and reconnects with backoff (and with the new token after a refresh).
 */
export function useRealtimeConnection(): void {
  const { session } = useAuth();
  const token = session?.access_token;
  const queryClient = useQueryClient();

  useEffect(() => {
    if (!token) return;
    let socket: WebSocket | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    let closed = false;

    const connect = () => {
      const url = `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}${REALTIME_PATH}`;
      socket = new WebSocket(url);
      socket.onopen = () => socket?.send(JSON.stringify({ type: 'auth', accessToken: token }));
      socket.onmessage = (message) => {
        const parsed = RealtimeServerMessageSchema.safeParse(JSON.parse(String(message.data)));
        if (!parsed.success) return;
        const data = parsed.data;
        if (data.type === 'ready') attempt = 0;
        if (data.type !== 'meeting.progress') return;
        const previous = progressStore.get(data.meetingId);
        progressStore.set(data);
        // A new status changes lists, counts and the meeting itself: refetch what shows meetings.
        if (previous?.status !== data.status || data.status !== 'processing') void queryClient.invalidateQueries({ queryKey: ['meetings'] });
      };
      socket.onclose = (event) => {
        if (closed || event.code === 4401) return; // a new token reconnects through this effect
        attempt += 1;
        retry = setTimeout(connect, Math.min(MAX_BACKOFF_MS, 500 * 2 ** attempt));
      };
    };
    connect();
    return () => {
      closed = true;
      clearTimeout(retry);
      socket?.close();
    };
  }, [token, queryClient]);

  useEffect(() => () => progressStore.clear(), []);
}

/** The newest progress of one meeting's transcription, while this tab has seen any. */
export function useMeetingProgress(meetingId: string): MeetingProgressEvent | undefined {
  return useSyncExternalStore(progressStore.subscribe, () => progressStore.get(meetingId));
}
