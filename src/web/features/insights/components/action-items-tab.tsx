import { CalendarClockIcon, UsersIcon } from 'lucide-react';
import type { ActionItem } from '#shared/contracts/insights.ts';
import { Badge } from '#web/components/ui/badge.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { MeetingLink } from './meeting-link.tsx';
import { TabEmpty } from './tab-empty.tsx';

/** Action items with the team they are assigned to, their due label and the meeting they came from (spec §2). */
export function ActionItemsTab({ items }: { items: ActionItem[] }) {
  if (items.length === 0) {
    return <TabEmpty title="No action items yet">Action items found in your meetings appear here with who owns them and when they are due.</TabEmpty>;
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle>Action Items</CardTitle>
        <CardDescription>From your meetings, newest meeting first.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y" aria-label="Action items">
          {items.map((item) => (
            <li key={item.id} className="grid gap-2 py-3 first:pt-0 last:pb-0">
              <span className="font-medium">{item.text}</span>
              <div className="flex flex-wrap items-center gap-2">
                {item.assignee && (
                  <Badge variant="secondary">
                    <UsersIcon aria-hidden="true" />
                    {item.assignee}
                  </Badge>
                )}
                {(item.dueText ?? item.due) && (
                  <Badge variant="outline">
                    <CalendarClockIcon aria-hidden="true" />
                    Due: {item.dueText ?? item.due}
                  </Badge>
                )}
                <span className="text-sm text-muted-foreground">
                  From <MeetingLink meeting={item.meeting} />
                </span>
              </div>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
