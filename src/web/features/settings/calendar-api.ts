import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { calendarEndpoints, type CalendarConnection } from '#shared/contracts/calendar.ts';
import { api } from '#web/lib/api-client.ts';
import { CALENDAR_DATA_KEY } from '#web/lib/query-keys.ts';

/** Settings › Connected Accounts › Google Calendar: the connection and what changes it. */
const connectionKey = [...CALENDAR_DATA_KEY, 'connection'] as const;

export function useCalendarConnection() {
  return useQuery({ queryKey: connectionKey, queryFn: ({ signal }) => api(calendarEndpoints.connection, {}, { signal }) });
}

/** Every change answers the connection as it now is; the events everywhere are read again. */
function useConnectionChange<T>(change: (input: T) => Promise<CalendarConnection>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: async (connection) => {
      client.setQueryData(connectionKey, connection);
      await client.invalidateQueries({ queryKey: CALENDAR_DATA_KEY });
    },
  });
}

export const useConnectIcs = () => useConnectionChange((icsUrl: string) => api(calendarEndpoints.connectIcs, { body: { icsUrl } }));
export const useDisconnectCalendar = () => useConnectionChange(() => api(calendarEndpoints.disconnect, {}));
export const useSyncCalendar = () => useConnectionChange(() => api(calendarEndpoints.sync, {}));

/** Connect with Google: the server's authorization URL, which the browser then opens. */
export const startGoogle = () => api(calendarEndpoints.googleStart, {});

export const useFinishGoogle = () =>
  useConnectionChange((body: { state: string; code?: string; error?: string }) => api(calendarEndpoints.googleFinish, { body }));
