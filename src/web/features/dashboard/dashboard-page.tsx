import { BarChart3Icon, CalendarClockIcon, CheckCircle2Icon, HistoryIcon, LightbulbIcon, MicIcon, SparklesIcon, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '#web/components/ui/dialog.tsx';
import { PageHeader } from '#web/components/layout/page-header.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Progress } from '#web/components/ui/progress.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#web/components/ui/table.tsx';
import { formatDate, formatDuration } from '#web/lib/format.ts';
import { useAuth } from '../auth/use-auth.ts';
import { useMeetings, useMeetingStats, useRemoveSamples } from '../meetings/meetings-api.ts';
import { fullNameOf } from '../shell/user-identity.ts';

const ACTIONS: { title: string; description: string; to: string; icon: LucideIcon }[] = [
  { title: 'New Meeting', description: 'Record a meeting and get a transcript.', to: '/record', icon: MicIcon },
  { title: 'Browse History', description: 'Find, replay and share past meetings.', to: '/history', icon: HistoryIcon },
  { title: 'View Analytics', description: 'See where your meeting time goes.', to: '/analytics', icon: BarChart3Icon },
];

const UPCOMING = [
  'Live transcript while you record',
  'Speaker names that stick across meetings',
  'Calendar integration to record scheduled meetings',
  'Shared team workspaces',
];

/** /dashboard (spec §2): welcome, actions, recent meetings, usage and insights, from the person's own data. */
export default function DashboardPage() {
  const { user } = useAuth();
  const firstName = fullNameOf(user)?.split(/\s+/)[0];
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title={`Welcome back, ${firstName ?? 'there'}!`} description="Here is what is happening with your meetings." />
      <div className="grid gap-4 sm:grid-cols-3">
        {ACTIONS.map((action) => (
          <Link key={action.to} to={action.to} className="group rounded-xl focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none">
            <Card className="h-full transition-colors group-hover:border-primary/50">
              <CardHeader>
                <action.icon className="mb-2 size-6 text-primary" aria-hidden="true" />
                <CardTitle>{action.title}</CardTitle>
                <CardDescription>{action.description}</CardDescription>
              </CardHeader>
            </Card>
          </Link>
        ))}
      </div>
      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        <RecentMeetings />
        <div className="grid gap-6">
          <UsageStatistics />
          <MeetingInsights />
        </div>
      </div>
      <Card className="mt-6">
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <SparklesIcon className="size-4 text-primary" aria-hidden="true" /> Upcoming features
          </CardTitle>
        </CardHeader>
        <CardContent>
          <ul className="grid gap-2 sm:grid-cols-2">
            {UPCOMING.map((feature) => (
              <li key={feature} className="flex items-center gap-2 text-sm text-muted-foreground">
                <CalendarClockIcon className="size-4" aria-hidden="true" />
                {feature}
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
    </div>
  );
}

function RecentMeetings() {
  const { data, isPending, isError } = useMeetings({ page: 1, pageSize: 3 });
  return (
    <Card className="lg:col-span-2">
      <CardHeader>
        <CardTitle>Recent meetings</CardTitle>
        <CardDescription>Your latest recordings.</CardDescription>
        {data?.items.some((m) => m.isSample) && <RemoveSamples />}
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
        ) : data.items.length === 0 ? (
          <div className="py-8 text-center">
            <p className="text-muted-foreground">No meetings recorded yet.</p>
            <Button variant="link" asChild>
              <Link to="/record">Record your first meeting</Link>
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
                  <TableCell className="max-w-64 truncate font-medium">
                    <Link to={`/meetings/${meeting.id}`} className="hover:underline">
                      {meeting.title}
                    </Link>
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

/** New accounts start with sample meetings; one action removes them all (the person's own stay). */
function RemoveSamples() {
  const remove = useRemoveSamples();
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" className="col-start-2 row-span-2 row-start-1 self-start justify-self-end">
          Remove sample meetings
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Remove the sample meetings?</DialogTitle>
          <DialogDescription>The six meetings badged “Sample” are deleted with their transcripts and insights. Your own meetings stay.</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button
            variant="destructive"
            disabled={remove.isPending}
            onClick={() =>
              remove.mutate(undefined, {
                onSuccess: ({ deleted }) => toast.success(`${deleted} sample meeting${deleted === 1 ? '' : 's'} removed`),
                onError: (error) => toast.error(error.message),
              })
            }
          >
            Remove sample meetings
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function UsageStatistics() {
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
      </CardContent>
    </Card>
  );
}

function MeetingInsights() {
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
        <CardDescription>Found in your meetings.</CardDescription>
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
          <Link to="/insights">View all insights</Link>
        </Button>
      </CardContent>
    </Card>
  );
}
