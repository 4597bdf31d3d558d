import { Link, useSearchParams } from 'react-router';
import type { InsightsResponse } from '#shared/contracts/insights.ts';
import { PageHeader } from '#web/components/layout/page-header.tsx';
import { QueryError } from '#web/components/query-error.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs.tsx';
import { ActionItemsTab } from './action-items-tab.tsx';
import { useInsights } from '../api.ts';
import { ParticipationTab } from './participation-tab.tsx';
import { SentimentTab } from './sentiment-tab.tsx';
import { TopicsTab } from './topics-tab.tsx';
import { paths } from '#web/app/paths.ts';

const TABS = [
  { value: 'topics', label: 'Topics' },
  { value: 'sentiment', label: 'Sentiment' },
  { value: 'participation', label: 'Participation' },
  { value: 'action-items', label: 'Action Items' },
] as const;
type TabValue = (typeof TABS)[number]['value'];
const isTab = (value: string | null): value is TabValue => TABS.some((t) => t.value === value);

/** /insights (spec §2): Topics, Sentiment, Participation and Action Items across the person's meetings. */
export function InsightsPage() {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: TabValue = isTab(requested) ? requested : 'topics';
  const { data, isPending, isError, error, refetch } = useInsights();

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title="AI Insights" description="Topics, sentiment, participation and action items across your meetings." />
      <Tabs value={tab} onValueChange={(value) => setParams(value === 'topics' ? {} : { tab: value }, { replace: true })}>
        <TabsList className="w-full sm:w-fit">
          {TABS.map((t) => (
            <TabsTrigger key={t.value} value={t.value}>
              {t.label}
            </TabsTrigger>
          ))}
        </TabsList>
        {isPending ? (
          <Skeleton className="mt-2 h-72 w-full" />
        ) : isError ? (
          <QueryError className="mt-2" error={error} retry={refetch} title="Insights could not be loaded." reason="none" />
        ) : data.meetings === 0 ? (
          <NoMeetings />
        ) : (
          <InsightTabs data={data} />
        )}
      </Tabs>
    </div>
  );
}

function InsightTabs({ data }: { data: InsightsResponse }) {
  return (
    <>
      <TabsContent value="topics">
        <TopicsTab topics={data.topics} />
      </TabsContent>
      <TabsContent value="sentiment">
        <SentimentTab sentiment={data.sentiment} />
      </TabsContent>
      <TabsContent value="participation">
        <ParticipationTab participation={data.participation} />
      </TabsContent>
      <TabsContent value="action-items">
        <ActionItemsTab items={data.actionItems} />
      </TabsContent>
    </>
  );
}

function NoMeetings() {
  return (
    <Card className="mt-2">
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
