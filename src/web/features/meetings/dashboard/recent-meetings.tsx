import { Link } from 'react-router';
import { paths } from '#web/app/paths.ts';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#web/components/ui/table.tsx';
import { formatDate, formatDuration } from '#web/lib/format.ts';
import { useMeetings, useSamplesSettingUp } from '../api.ts';
import { RemoveSamples } from '../components/remove-samples.tsx';
import { SharedByBadge } from '../components/shared-by.tsx';

/** The dashboard's three latest meetings, with the way to remove the sample meetings. */
export function RecentMeetings() {
  const { data, isPending, isError } = useMeetings({ page: 1, pageSize: 3 });
  const samplesSettingUp = useSamplesSettingUp();
  return (
    <Card className="lg:col-span-2">
      <CardHeader>
        <CardTitle>Recent meetings</CardTitle>
        <CardDescription>Your latest recordings.</CardDescription>
        <RemoveSamples className="col-start-2 row-span-2 row-start-1 self-start justify-self-end" />
      </CardHeader>
      <CardContent>
        {isPending ? (
          <div className="grid gap-2">
            <Skeleton className="h-8" />
            <Skeleton className="h-8" />
            <Skeleton className="h-8" />
          </div>
        ) : isError ? (
          <p className="text-sm text-destructive">Your meetings could not be loaded. Try again in a moment.</p>
        ) : data.items.length === 0 && samplesSettingUp ? (
          <p role="status" className="py-8 text-center text-muted-foreground">
            Setting up your sample meetings…
          </p>
        ) : data.items.length === 0 ? (
          <div className="py-8 text-center">
            <p className="text-muted-foreground">No meetings recorded yet.</p>
            <Button variant="link" asChild>
              <Link to={paths.record.href()}>Record your first meeting</Link>
            </Button>
          </div>
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Meeting</TableHead>
                <TableHead>Date</TableHead>
                <TableHead className="text-right">Duration</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {data.items.map((meeting) => (
                <TableRow key={meeting.id}>
                  {/* Long titles wrap (a phone has no room for them on one line); the date and length stay whole. */}
                  <TableCell className="font-medium whitespace-normal break-words">
                    <Link to={paths.meeting.href(meeting.id)} className="hover:underline">
                      {meeting.title}
                    </Link>
                    <SharedByBadge meeting={meeting} className="ml-2" />
                    {meeting.isSample && (
                      <Badge variant="outline" className="ml-2">
                        Sample
                      </Badge>
                    )}
                  </TableCell>
                  <TableCell>{formatDate(meeting.startedAt)}</TableCell>
                  <TableCell className="text-right">{formatDuration(meeting.durationSeconds)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
