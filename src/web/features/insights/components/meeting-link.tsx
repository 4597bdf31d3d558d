import { Link } from 'react-router';
import type { MeetingRef } from '#shared/contracts/insights.ts';
import { formatClock, formatDate } from '#web/lib/format.ts';
import { paths } from '#web/app/paths.ts';

/**
 * "Weekly Team Standup · Nov 21, 2026", linking to the meeting; with `atMs`, to that moment of it
 * ("… at 12:34"); a teammate's meeting adds "· Shared by <owner>".
 */
export function MeetingLink({ meeting, atMs }: { meeting: MeetingRef; atMs?: number }) {
  return (
    <span className="text-sm text-muted-foreground">
      <Link
        to={paths.meeting.href(meeting.id, atMs === undefined ? undefined : { t: atMs })}
        className="font-medium text-foreground underline-offset-4 hover:underline"
      >
        {meeting.title}
      </Link>
      {' · '}
      {formatDate(meeting.startedAt)}
      {atMs !== undefined && ` at ${formatClock(atMs / 1000)}`}
      {meeting.sharedBy && ` · Shared by ${meeting.sharedBy.name.trim() || 'a teammate'}`}
    </span>
  );
}
