import type { ReactNode } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Progress } from '#web/components/ui/progress.tsx';
import { useMeetingStats } from '../api.ts';

/** The dashboard's usage card (spec §2); `children` adds the rows of the person's plan (this month's hours against its limit). */
export function UsageStatistics({ children }: { children?: ReactNode }) {
  const { data } = useMeetingStats();
  const hours = data?.hoursRecorded ?? 0;
  const meetings = data?.meetingsTranscribed ?? 0;
  const storage = data?.storagePercent ?? 0;
  // The spec's progress-bar formulas (§9): hours × 2, meetings × 4, storage as a percent.
  const rows = [
    { label: 'Hours recorded', value: `${hours}`, progress: Math.min(100, hours * 2) },
    { label: 'Meetings transcribed', value: `${meetings}`, progress: Math.min(100, meetings * 4) },
    { label: 'Storage used', value: `${storage}%`, progress: storage },
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Usage statistics</CardTitle>
        {/* The server leaves the samples out of these figures; say so while they are still in the list. */}
        {(data?.sampleMeetings ?? 0) > 0 && <CardDescription>Your own meetings; the sample meetings are not counted.</CardDescription>}
      </CardHeader>
      <CardContent className="grid gap-4">
        {rows.map((row) => (
          <div key={row.label} className="grid gap-1.5">
            <div className="flex justify-between text-sm">
              <span className="text-muted-foreground">{row.label}</span>
              <span className="font-medium">{row.value}</span>
            </div>
            <Progress value={row.progress} aria-label={row.label} />
          </div>
        ))}
        {children}
      </CardContent>
    </Card>
  );
}
