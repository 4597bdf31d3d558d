import { calendarEndpoints } from '#shared/contracts/calendar.ts';
import type { Router } from '#server/http/endpoint-route.ts';
import { caller } from '../auth/api-guard.ts';
import type { CalendarService } from './calendar.service.ts';

/**
 * /api/v1/integrations/calendar (the connection) and /api/v1/calendar (its events): the caller's own
 * only; /api/v1/meetings/:id/calendar-event: for a meeting the caller may read.
 */
export function registerCalendarRoutes(route: Router, deps: { calendar: CalendarService }): void {
  const { calendar } = deps;
  const userOf = (request: Parameters<typeof caller>[0]) => caller(request).user.id;
  route(calendarEndpoints.connection, async (request) => calendar.connection(userOf(request)));
  route(calendarEndpoints.connectIcs, async (request) => calendar.connectIcs(userOf(request), request.body.icsUrl));
  route(calendarEndpoints.disconnect, async (request) => calendar.disconnect(userOf(request)));
  route(calendarEndpoints.sync, async (request) => calendar.sync(userOf(request)));
  route(calendarEndpoints.googleStart, async (request) => calendar.googleStart(userOf(request)));
  route(calendarEndpoints.googleFinish, async (request) => calendar.googleFinish(userOf(request), request.body));
  route(calendarEndpoints.events, async (request) => ({
    events: await calendar.events(userOf(request), new Date(request.query.from), new Date(request.query.to)),
  }));
  route(calendarEndpoints.event, async (request) => calendar.event(userOf(request), request.params.id));
  route(calendarEndpoints.followUp, async (request) => calendar.followUp(userOf(request), request.body));
  route(calendarEndpoints.meetingCalendar, async (request) => calendar.meetingCalendar(userOf(request), request.params.id));
  route(calendarEndpoints.linkMeeting, async (request) => calendar.linkMeeting(userOf(request), request.params.id, request.body.meetingId));
}
