import { Link } from 'react-router';
import { paths } from '#web/app/paths.ts';
import { formatDate } from '#web/lib/format.ts';
import { useOwnedActionItems, useTeamMeetings } from './api.ts';
import type { TeamMember } from './team-data.ts';

/**
 * View Profile on a real team: the member's meetings shared with the team, and the open action items
 * they own in meetings shared with it. Read through the same endpoints (and access rule) as
 * /history and the tracker, so nothing shows here that the viewer could not open.
 */
export function MemberProfileDetails({ teamId, member }: { teamId: string; member: TeamMember }) {
  const meetings = useTeamMeetings(teamId, true);
  const items = useOwnedActionItems(member.name, true);
  const teamMeetingIds = new Set(meetings.data?.map((meeting) => meeting.id));
  const theirs = meetings.data?.filter((meeting) => meeting.owner?.id === member.id) ?? [];
  const owned = items.data?.items.filter((item) => teamMeetingIds.has(item.meeting.id)) ?? [];
  return (
    <div className="grid gap-4 text-sm">
      <section aria-labelledby={`profile-${member.id}-meetings`} className="grid gap-2">
        <h3 id={`profile-${member.id}-meetings`} className="font-medium">
          Meetings shared with the team
        </h3>
        {meetings.isPending && <p className="text-muted-foreground">Loading…</p>}
        {meetings.isError && <p className="text-destructive">{meetings.error.message}</p>}
        {meetings.isSuccess && theirs.length === 0 && <p className="text-muted-foreground">None yet.</p>}
        <ul className="grid gap-1">
          {theirs.map((meeting) => (
            <li key={meeting.id} className="flex justify-between gap-2">
              <Link to={paths.meeting.href(meeting.id)} className="truncate text-primary underline-offset-4 hover:underline">
                {meeting.title || 'Untitled meeting'}
              </Link>
              <span className="whitespace-nowrap text-muted-foreground">{formatDate(meeting.startedAt)}</span>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby={`profile-${member.id}-items`} className="grid gap-2">
        <h3 id={`profile-${member.id}-items`} className="font-medium">
          Open action items
        </h3>
        {items.isPending && <p className="text-muted-foreground">Loading…</p>}
        {items.isError && <p className="text-destructive">{items.error.message}</p>}
        {items.isSuccess && owned.length === 0 && <p className="text-muted-foreground">None assigned to {member.name} in the team’s meetings.</p>}
        <ul className="grid gap-1">
          {owned.map((item) => (
            <li key={item.id}>
              <Link to={paths.meeting.href(item.meeting.id, { t: item.startMs })} className="text-primary underline-offset-4 hover:underline">
                {item.text}
              </Link>
              <span className="text-muted-foreground"> · {item.meeting.title}</span>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
