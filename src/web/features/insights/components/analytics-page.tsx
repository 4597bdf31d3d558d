import { useSearchParams } from 'react-router';
import { Area, AreaChart, Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ANALYTICS_WEEK_CHOICES, type AnalyticsResponse } from '#shared/contracts/insights.ts';
import { PageHeader } from '#web/components/layout/page-header.tsx';
import { QueryError } from '#web/components/query-error.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '#web/components/ui/select.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { formatDuration } from '#web/lib/format.ts';
import { useAnalytics } from '../api.ts';

const weekLabel = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const labelOf = (weekStart: string) => weekLabel.format(new Date(`${weekStart}T12:00:00`));
const isChoice = (n: number) => (ANALYTICS_WEEK_CHOICES as readonly number[]).includes(n);

/** /analytics: where the person's meeting time goes, week by week, from their own meetings. */
export function AnalyticsPage() {
  const [params, setParams] = useSearchParams();
  const requested = Number(params.get('weeks'));
  const weeks = isChoice(requested) ? requested : 12;
  const { data, isPending, isError, error, refetch } = useAnalytics(weeks);

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="Analytics"
        description="Where your meeting time goes, week by week."
        actions={
          <Select value={String(weeks)} onValueChange={(value) => setParams(value === '12' ? {} : { weeks: value }, { replace: true })}>
            <SelectTrigger className="w-40" aria-label="Period">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {ANALYTICS_WEEK_CHOICES.map((n) => (
                <SelectItem key={n} value={String(n)}>
                  Last {n} weeks
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        }
      />
      {isPending ? (
        <Skeleton className="h-96 w-full" />
      ) : isError ? (
        <QueryError error={error} retry={refetch} title="Analytics could not be loaded." reason="none" />
      ) : (
        <AnalyticsCharts data={data} weeks={weeks} />
      )}
    </div>
  );
}

function AnalyticsCharts({ data, weeks }: { data: AnalyticsResponse; weeks: number }) {
  const chart = data.weeks.map((w) => ({ ...w, label: labelOf(w.weekStart), hours: Math.round((w.meetingMinutes / 60) * 10) / 10 }));
  const talkShare = data.totals.meetingMinutes === 0 ? 0 : Math.round((data.totals.talkMinutes / data.totals.meetingMinutes) * 100);
  const stats = [
    { label: 'Meetings', value: String(data.totals.meetings) },
    { label: 'Meeting time', value: formatDuration(Math.round(data.totals.meetingMinutes * 60)) },
    { label: 'Average meeting', value: formatDuration(Math.round(data.totals.averageMeetingMinutes * 60)) },
    { label: 'Talk time', value: `${formatDuration(Math.round(data.totals.talkMinutes * 60))} (${talkShare}%)` },
  ];
  return (
    <div className="grid gap-4">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {stats.map((s) => (
          <Card key={s.label}>
            <CardHeader>
              <CardDescription>{s.label}</CardDescription>
              <CardTitle className="text-2xl">{s.value}</CardTitle>
            </CardHeader>
          </Card>
        ))}
      </div>
      {data.totals.meetings === 0 && (
        <p className="text-sm text-muted-foreground">
          No meetings of your own in the last {weeks} weeks: the charts fill in as you record (the sample meetings are not counted).
        </p>
      )}
      <div className="grid gap-4 lg:grid-cols-2">
        <ChartCard title="Meeting time" description="Hours in meetings per week.">
          <BarChart data={chart}>
            <CartesianGrid vertical={false} strokeDasharray="3 3" />
            <XAxis dataKey="label" tickLine={false} fontSize={12} />
            <YAxis width={32} fontSize={12} />
            <Tooltip formatter={(value) => [`${value} h`, 'Meeting time']} />
            <Bar dataKey="hours" name="Meeting time" fill="hsl(221 83% 53%)" radius={[4, 4, 0, 0]} />
          </BarChart>
        </ChartCard>
        <ChartCard title="Meetings" description="Meetings per week.">
          <LineChart data={chart}>
            <CartesianGrid vertical={false} strokeDasharray="3 3" />
            <XAxis dataKey="label" tickLine={false} fontSize={12} />
            <YAxis allowDecimals={false} width={32} fontSize={12} />
            <Tooltip />
            <Line dataKey="meetings" name="Meetings" stroke="hsl(262 83% 58%)" strokeWidth={2} dot={false} />
          </LineChart>
        </ChartCard>
      </div>
      <ChartCard title="Talk time" description="Minutes of transcribed speech per week, against the minutes recorded.">
        <AreaChart data={chart}>
          <CartesianGrid vertical={false} strokeDasharray="3 3" />
          <XAxis dataKey="label" tickLine={false} fontSize={12} />
          <YAxis width={40} fontSize={12} />
          <Tooltip />
          <Area dataKey="meetingMinutes" name="Recorded minutes" stroke="hsl(220 9% 55%)" fill="hsl(220 9% 55% / 0.15)" />
          <Area dataKey="talkMinutes" name="Talk minutes" stroke="hsl(142 71% 40%)" fill="hsl(142 71% 40% / 0.3)" />
        </AreaChart>
      </ChartCard>
    </div>
  );
}

function ChartCard({ title, description, children }: { title: string; description: string; children: React.ReactElement }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="h-64" role="img" aria-label={`${title} chart`}>
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      </CardContent>
    </Card>
  );
}
