import { Badge } from '#web/components/ui/badge.tsx';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { MemberAvatar } from './member-avatar.tsx';
import { SAMPLE_ACTIVITY } from './team-data.ts';

/** The Activity tab (spec §2 /team): sample entries grouped Today / Yesterday / Last Week. */
export function TeamActivity() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Team Activity</CardTitle>
        <CardDescription>Recent actions by team members</CardDescription>
        <CardAction>
          <Badge variant="outline">Sample</Badge>
        </CardAction>
      </CardHeader>
      <CardContent className="grid gap-6">
        {SAMPLE_ACTIVITY.map((group) => {
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
                      {entry.subject && <span className="font-medium"> “{entry.subject}”</span>}
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
