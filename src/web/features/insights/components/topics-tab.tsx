import type { Topic } from '#shared/contracts/insights.ts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { TabEmpty } from './tab-empty.tsx';
import { MeetingLink } from './meeting-link.tsx';

export function TopicsTab({ topics }: { topics: Topic[] }) {
  if (topics.length === 0) {
    return <TabEmpty title="No topics yet">Topics appear here as your meetings are analysed.</TabEmpty>;
  }
  const most = Math.max(...topics.map((t) => t.meetings));
  return (
    <Card>
      <CardHeader>
        <CardTitle>Topics</CardTitle>
        <CardDescription>What your meetings were about, most discussed first.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-4" aria-label="Topics">
          {topics.map((topic) => (
            <li key={topic.name} className="grid gap-1.5">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <span className="font-medium">{topic.name}</span>
                <span className="text-sm text-muted-foreground">{topic.meetings === 1 ? '1 meeting' : `${topic.meetings} meetings`}</span>
              </div>
              <div className="h-2 rounded-full bg-muted" aria-hidden="true">
                <div className="h-2 rounded-full bg-primary" style={{ width: `${(topic.meetings / most) * 100}%` }} />
              </div>
              <span className="text-xs text-muted-foreground">
                Last discussed in <MeetingLink meeting={topic.lastDiscussed} />
              </span>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
