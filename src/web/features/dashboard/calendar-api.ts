import { useQuery } from '@tanstack/react-query';
import { calendarEndpoints } from '#shared/contracts/calendar.ts';
import { api } from '#web/lib/api-client.ts';
import { CALENDAR_DATA_KEY } from '#web/lib/query-keys.ts';

const DAY_MS = 86_400_000;
/** Read again every five minutes while the dashboard is open (the server refreshes the calendar every 15). */
const REFETCH_MS = 5 * 60_000;

/** The connected calendar (or none), for what the upcoming meetings card says. */
export function useCalendarConnectionState() {
  return useQuery({ queryKey: [...CALENDAR_DATA_KEY, 'connection'], queryFn: ({ signal }) => api(calendarEndpoints.connection, {}, { signal }) });
}

/** The events of the next `days` days from when they are fetched (one under way now included). */
export function useUpcomingEvents(days: number, enabled: boolean) {
  return useQuery({
    queryKey: [...CALENDAR_DATA_KEY, 'upcoming', days],
    queryFn: ({ signal }) => {
      const from = new Date();
      const to = new Date(from.getTime() + days * DAY_MS);
      return api(calendarEndpoints.events, { query: { from: from.toISOString(), to: to.toISOString() } }, { signal });
    },
    enabled,
    refetchInterval: REFETCH_MS,
  });
}
