import { Link } from 'react-router';
import type { MeetingRef } from '#shared/contracts/insights.ts';
import { formatDate } from '#web/lib/format.ts';
import { paths } from '#web/app/paths.ts';

/** "Weekly Team Standup · Nov 21, 2026", linking to the meeting. */
export function MeetingLink({ meeting }: { meeting: MeetingRef }) {
  return (
    <span className="text-sm text-muted-foreground">
      <Link to={paths.meeting.href(meeting.id)} className="font-medium text-foreground underline-offset-4 hover:underline">
        {meeting.title}
      </Link>
      {' · '}
      {formatDate(meeting.startedAt)}
    </span>
  );
}
