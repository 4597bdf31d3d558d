import { BarChart3Icon, CalendarClockIcon, HistoryIcon, MicIcon, SparklesIcon, type LucideIcon } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { meEndpoints } from '#shared/contracts/me.ts';
import { Link } from 'react-router';
import { paths } from '#web/app/paths.ts';
import { PageHeader } from '#web/components/layout/page-header.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { useAuth } from '#web/lib/auth/use-auth.ts';
import { api } from '#web/lib/api-client.ts';
import { fullNameOf } from '#web/lib/auth/user-identity.ts';
import { UpcomingMeetings } from './upcoming-meetings.tsx';

const ACTIONS: { title: string; description: string; to: string; icon: LucideIcon }[] = [
  { title: 'New Meeting', description: 'Record a meeting and get a transcript.', to: paths.record.href(), icon: MicIcon },
  { title: 'Browse History', description: 'Find, replay and share past meetings.', to: paths.history.href(), icon: HistoryIcon },
  { title: 'View Analytics', description: 'See where your meeting time goes.', to: paths.analytics.href(), icon: BarChart3Icon },
];

/** What Parley does not do yet (the live transcript while recording and team workspaces already exist, so they are not listed). */
const UPCOMING = ['Speaker names that stick across meetings', 'Slack and Microsoft Teams integrations'];

/** The meeting widgets come from the meetings feature; app/routes/dashboard.tsx puts them in. */
type DashboardPageProps = { recentMeetings: ReactNode; usageStatistics: ReactNode; meetingInsights: ReactNode };

/** /dashboard (spec §2): welcome, actions, recent meetings, usage and insights, from the person's own data. */
export function DashboardPage({ recentMeetings, usageStatistics, meetingInsights }: DashboardPageProps) {
  const { user } = useAuth();
  const firstName = fullNameOf(user)?.split(/\s+/)[0] ?? 'there';
  // Whether the person has been here before is the server's to say (the session of their first
  // visit, however the account was made): asked on every dashboard load, never cached.
  const visit = useQuery({
    queryKey: ['me', user?.id, 'visit'],
    queryFn: ({ signal }) => api(meEndpoints.get, {}, { signal }),
    select: (me) => me.firstVisit,
    staleTime: 0,
    gcTime: 0,
  });
  // A brand-new account is welcomed, not welcomed back; its first steps are the sample meetings and a recording.
  const header =
    visit.data === undefined
      ? { title: '\u00a0', description: '' } // a line's height held, so the page does not jump when the greeting comes
      : visit.data
        ? { title: `Welcome to Parley, ${firstName}!`, description: 'Look around the sample meetings, then record or upload your first one.' }
        : { title: `Welcome back, ${firstName}!`, description: 'Here is what is happening with your meetings.' };
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title={header.title} description={header.description} />
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
      <UpcomingMeetings />
      {/* One column that may shrink below its content (minmax(0, 1fr)): a wide table scrolls inside its card, never the page. */}
      <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-3">
        {recentMeetings}
        <div className="grid gap-6">
          {usageStatistics}
          {meetingInsights}
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
