import { CalendarIcon, ExternalLinkIcon, HistoryIcon } from 'lucide-react';
import { Link } from 'react-router';
import { ianaTimeZone } from '#shared/contracts/time-zones.ts';
import { paths } from '#web/app/paths.ts';
import { useAuth } from '#web/lib/auth/use-auth.ts';
import { httpLink, NEW_TAB_REL } from '#web/lib/external-link.ts';
import { cn } from '#web/lib/utils.ts';
import { useMeetingCalendar } from '../api.ts';

const openItems = (count: number) => (count === 0 ? 'no open action items' : `${count} open action ${count === 1 ? 'item' : 'items'}`);

/**
 * The calendar event a meeting was recorded from (its title, when, and the event in its calendar when
 * the provider gives an address) and, for a recurring meeting, the meetings of its earlier
 * occurrences with what is still open from them: "last time". Nothing for a meeting recorded from no
 * event, or while it loads (the rest of the page does not wait for it).
 */
export function RecordedFromEvent({ meetingId, className }: { meetingId: string; className?: string }) {
  const { user } = useAuth();
  const timeZone = ianaTimeZone(user?.user_metadata?.timezone);
  const calendar = useMeetingCalendar(meetingId);
  const event = calendar.data?.event;
  if (!event) return null;
  const day = new Intl.DateTimeFormat(undefined, { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', timeZone });
  const time = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', timeZone });
  const when = event.allDay ? day.format(new Date(event.start)) : `${day.format(new Date(event.start))} · ${time.format(new Date(event.start))}`;
  const earlier = calendar.data?.earlier ?? [];
  const url = httpLink(event.url);
  return (
    <section aria-label="Calendar event" className={cn('grid gap-2 rounded-lg border p-3 text-sm', className)}>
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <CalendarIcon className="size-4 text-muted-foreground" aria-hidden="true" />
        <span>
          Recorded from <span className="font-medium">{event.title}</span> · {when}
        </span>
        {url && (
          <a href={url} target="_blank" rel={NEW_TAB_REL} className="inline-flex items-center gap-1 text-primary underline underline-offset-4">
            Open in your calendar <ExternalLinkIcon className="size-3.5" aria-hidden="true" />
          </a>
        )}
      </p>
      {earlier.length > 0 && (
        <div className="grid gap-1">
          <p className="font-medium">Earlier in this series</p>
          <ul className="grid gap-1" aria-label="Earlier meetings of this series">
            {earlier.map((meeting) => (
              <li key={meeting.id} className="flex flex-wrap items-center gap-x-2">
                <HistoryIcon className="size-3.5 text-muted-foreground" aria-hidden="true" />
                <Link to={paths.meeting.href(meeting.id)} className="text-primary hover:underline">
                  {meeting.title}
                </Link>
                <span className="text-muted-foreground">
                  {day.format(new Date(meeting.startedAt))} · {openItems(meeting.openActionItems)}
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
