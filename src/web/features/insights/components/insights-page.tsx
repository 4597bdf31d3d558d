import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { InsightsResponse } from '#shared/contracts/insights.ts';
import { PageHeader } from '#web/components/layout/page-header.tsx';
import { QueryError } from '#web/components/query-error.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs.tsx';
import { paths } from '#web/app/paths.ts';
import { useInsights } from '../api.ts';
import { ActionItemTracker } from '../tracker/action-item-tracker.tsx';
import { DecisionRegister } from '../tracker/decision-register.tsx';
import { ParticipationTab } from './participation-tab.tsx';
import { SentimentTab } from './sentiment-tab.tsx';
import { TopicsTab } from './topics-tab.tsx';

// The spec's four tabs, then the decision register.
const TABS = [
  { value: 'topics', label: 'Topics' },
  { value: 'sentiment', label: 'Sentiment' },
  { value: 'participation', label: 'Participation' },
  { value: 'action-items', label: 'Action Items' },
  { value: 'decisions', label: 'Decisions' },
] as const;
type TabValue = (typeof TABS)[number]['value'];
const isTab = (value: string | null): value is TabValue => TABS.some((t) => t.value === value);

/**
 * /insights (spec §2): Topics, Sentiment, Participation and Action Items across the person's meetings,
 * and the decision register. Only the open tab loads (Radix unmounts the others); the action-item
 * tracker and the register have their own filters in the URL beside `?tab=`.
 */
export function InsightsPage() {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: TabValue = isTab(requested) ? requested : 'topics';

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title="AI Insights" description="Topics, sentiment, participation, action items and decisions across your meetings." />
      {/* A new tab drops the old tab's filters. */}
      <Tabs value={tab} onValueChange={(value) => setParams(value === 'topics' ? {} : { tab: value }, { replace: true })}>
        {/* On a phone the five tabs take two rows rather than hide past the edge. */}
        <TabsList className="h-auto max-w-full flex-wrap justify-start">
          {TABS.map((t) => (
            <TabsTrigger key={t.value} value={t.value} className="flex-none">
              {t.label}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="topics">
          <FromInsights>{(data) => <TopicsTab topics={data.topics} />}</FromInsights>
        </TabsContent>
        <TabsContent value="sentiment">
          <FromInsights>{(data) => <SentimentTab sentiment={data.sentiment} />}</FromInsights>
        </TabsContent>
        <TabsContent value="participation">
          <FromInsights>{(data) => <ParticipationTab participation={data.participation} />}</FromInsights>
        </TabsContent>
        <TabsContent value="action-items">
          <ActionItemTracker />
        </TabsContent>
        <TabsContent value="decisions">
          <DecisionRegister />
        </TabsContent>
      </Tabs>
    </div>
  );
}

/** The tabs built from GET /insights: loading, its error, no meetings at all, or the tab. */
function FromInsights({ children }: { children: (data: InsightsResponse) => ReactNode }) {
  const { data, isPending, isError, error, refetch, isFetching } = useInsights();
  if (isPending) return <Skeleton className="h-72 w-full" />;
  if (isError) return <QueryError error={error} retry={refetch} retrying={isFetching} title="Insights could not be loaded." reason="none" />;
  if (data.meetings === 0) return <NoMeetings />;
  return children(data);
}

function NoMeetings() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>No meetings yet</CardTitle>
        <CardDescription>Insights are built from your meetings: record or import one and they appear here.</CardDescription>
      </CardHeader>
      <CardContent>
        <Link to={paths.record.href()} className="text-sm font-medium text-primary underline-offset-4 hover:underline">
          Record your first meeting
        </Link>
      </CardContent>
    </Card>
  );
}
