import { CalendarIcon, ExternalLinkIcon, HistoryIcon, MicIcon } from 'lucide-react';
import { Link } from 'react-router';
import { ianaTimeZone } from '#shared/contracts/time-zones.ts';
import type { CalendarEvent } from '#shared/contracts/calendar.ts';
import { paths } from '#web/app/paths.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { useAuth } from '#web/lib/auth/use-auth.ts';
import { httpLink, NEW_TAB_REL } from '#web/lib/external-link.ts';
import { useCalendarConnectionState, useUpcomingEvents } from './calendar-api.ts';

const DAYS = 7;
const SHOWN = 8;

/** The next seven days of the connected calendar, in the person's time zone, with Record on each meeting. */
export function UpcomingMeetings() {
  const { user } = useAuth();
  const timeZone = ianaTimeZone(user?.user_metadata?.timezone);
  const connection = useCalendarConnectionState();
  const connected = connection.data?.connected === true;
  const events = useUpcomingEvents(DAYS, connected);
  // All-day entries (holidays, out of office) are not meetings to record.
  const meetings = (events.data?.events ?? []).filter((e) => !e.allDay).slice(0, SHOWN);
  const day = new Intl.DateTimeFormat(undefined, { weekday: 'short', month: 'short', day: 'numeric', timeZone });
  const time = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', timeZone });
  return (
    <Card className="mt-6">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <CalendarIcon className="size-4 text-primary" aria-hidden="true" /> Upcoming meetings
        </CardTitle>
        <CardDescription>The next {DAYS} days of your calendar.</CardDescription>
      </CardHeader>
      <CardContent>
        {connection.isPending || (connected && events.isPending) ? (
          <div className="grid gap-2">
            <Skeleton className="h-10" />
            <Skeleton className="h-10" />
          </div>
        ) : connection.isError || events.isError ? (
          <p className="text-sm text-destructive">Your calendar could not be loaded. Try again in a moment.</p>
        ) : !connected ? (
          <p className="text-sm text-muted-foreground">
            Connect your calendar to see your meetings here and record them in one click.{' '}
            <Link to={paths.settings.href('profile')} className="text-primary underline underline-offset-4">
              Connect a calendar
            </Link>
          </p>
        ) : meetings.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            Nothing on your calendar in the next {DAYS} days.
            {connection.data.lastError ? ` The last refresh failed: ${connection.data.lastError}` : ''}
          </p>
        ) : (
          <ul className="grid gap-2" aria-label="Upcoming meetings">
            {meetings.map((event) => (
              <UpcomingMeeting key={event.id} event={event} when={`${day.format(new Date(event.start))} · ${time.format(new Date(event.start))}`} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function UpcomingMeeting({ event, when }: { event: CalendarEvent; when: string }) {
  const others = event.attendees.length;
  const url = httpLink(event.url);
  return (
    <li className="flex flex-wrap items-center gap-3 rounded-lg border p-3">
      <div className="grid min-w-0 flex-1 gap-0.5">
        {url ? (
          <a href={url} target="_blank" rel={NEW_TAB_REL} className="flex min-w-0 items-center gap-1 text-sm font-medium hover:underline">
            <span className="truncate">{event.title}</span>
            <ExternalLinkIcon className="size-3.5 shrink-0 text-muted-foreground" aria-hidden="true" />
            <span className="sr-only">{' (opens in your calendar in a new tab)'}</span>
          </a>
        ) : (
          <span className="truncate text-sm font-medium">{event.title}</span>
        )}
        <span className="text-sm text-muted-foreground">
          {when}
          {others > 0 ? ` · ${others} ${others === 1 ? 'person' : 'people'}` : ''}
        </span>
        {event.lastMeeting && (
          <Link to={paths.meeting.href(event.lastMeeting.id)} className="flex items-center gap-1 text-sm text-primary hover:underline">
            <HistoryIcon className="size-3.5" aria-hidden="true" />
            Last time: {event.lastMeeting.title}
            {event.lastMeeting.openActionItems > 0
              ? ` · ${event.lastMeeting.openActionItems} open action ${event.lastMeeting.openActionItems === 1 ? 'item' : 'items'}`
              : ''}
          </Link>
        )}
      </div>
      {event.meetingId ? (
        <Button variant="outline" size="sm" asChild>
          <Link to={paths.meeting.href(event.meetingId)}>Open recording</Link>
        </Button>
      ) : (
        <Button size="sm" asChild>
          <Link to={paths.record.href({ event: event.id })} aria-label={`Record ${event.title}`}>
            <MicIcon className="size-4" aria-hidden="true" /> Record
          </Link>
        </Button>
      )}
    </li>
  );
}
