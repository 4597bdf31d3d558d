import { CheckCircle2Icon, LightbulbIcon, SparklesIcon } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '#web/app/paths.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { useMeetingStats } from '../api.ts';

export function MeetingInsights() {
  const { data } = useMeetingStats();
  const items = [
    { label: 'Action items', value: data?.insights.actionItems ?? 0, icon: CheckCircle2Icon },
    { label: 'Decisions', value: data?.insights.decisions ?? 0, icon: LightbulbIcon },
    { label: 'Key points', value: data?.insights.keyPoints ?? 0, icon: SparklesIcon },
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Meeting insights</CardTitle>
        {/* Counted as the usage statistics are: the samples are left out; say so while they are still in the list. */}
        <CardDescription>
          {(data?.sampleMeetings ?? 0) > 0 ? 'Found in your own meetings; the sample meetings are not counted.' : 'Found in your meetings.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {items.map((item) => (
          <div key={item.label} className="flex items-center justify-between text-sm">
            <span className="flex items-center gap-2 text-muted-foreground">
              <item.icon className="size-4" aria-hidden="true" />
              {item.label}
            </span>
            <span className="font-semibold">{item.value}</span>
          </div>
        ))}
        <Button variant="outline" size="sm" asChild>
          <Link to={paths.insights.href()}>View all insights</Link>
        </Button>
      </CardContent>
    </Card>
  );
}
