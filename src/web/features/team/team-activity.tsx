import { Link } from 'react-router';
import { Badge } from '#web/components/ui/badge.tsx';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { paths } from '#web/app/paths.ts';
import { MemberAvatar } from './member-avatar.tsx';
import type { ActivityGroupOf, ActivityLine } from './team-data.ts';

/**
 * The Activity tab (spec §2 /team): the team's events grouped Today / Yesterday / Last Week (and
 * Earlier), or the sample entries for a person in no team yet. A meeting still shared with the team
 * is a link members can open.
 */
export function TeamActivity({ groups, sample, state }: { groups: readonly ActivityGroupOf<ActivityLine>[]; sample: boolean; state?: 'loading' | 'error' }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Team Activity</CardTitle>
        <CardDescription>Recent actions by team members</CardDescription>
        {sample && (
          <CardAction>
            <Badge variant="outline">Sample</Badge>
          </CardAction>
        )}
      </CardHeader>
      <CardContent className="grid gap-6">
        {state === 'loading' && <p className="text-sm text-muted-foreground">Loading activity…</p>}
        {state === 'error' && <p className="text-sm text-destructive">The team’s activity could not be loaded.</p>}
        {!state && groups.length === 0 && <p className="text-sm text-muted-foreground">Nothing has happened in this team yet.</p>}
        {groups.map((group) => {
          const headingId = `activity-${group.label.toLowerCase().replace(/\s+/g, '-')}`;
          return (
            <section key={group.label} aria-labelledby={headingId} className="grid gap-3">
              <h3 id={headingId} className="text-sm font-medium text-muted-foreground">
                {group.label}
              </h3>
              <ul className="grid gap-3">
                {group.entries.map((entry) => (
                  <li key={entry.id} className="flex items-start gap-3">
                    <MemberAvatar member={{ name: entry.member }} className="size-8 text-xs" />
                    <p className="flex-1 text-sm">
                      <span className="font-medium">{entry.member}</span> {entry.action}
                      {entry.subject &&
                        (entry.meetingId ? (
                          <>
                            {' '}
                            <Link to={paths.meeting.href(entry.meetingId)} className="font-medium underline-offset-4 hover:underline">
                              “{entry.subject}”
                            </Link>
                          </>
                        ) : (
                          <span className="font-medium"> “{entry.subject}”</span>
                        ))}
                      {entry.after && ` ${entry.after}`}
                    </p>
                    <span className="text-xs whitespace-nowrap text-muted-foreground">{entry.time}</span>
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
      </CardContent>
    </Card>
  );
}
