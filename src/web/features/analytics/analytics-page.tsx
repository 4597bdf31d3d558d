import { PageHeader } from '#web/components/layout/page-header.tsx';
import { Card, CardContent } from '#web/components/ui/card.tsx';

/** /analytics (spec §2). The full screen arrives with the meetings work (issue 3); this is its frame. */
export default function AnalyticsPage() {
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title="Analytics" description="Where your meeting time goes, week by week." />
      <Card>
        <CardContent className="py-10 text-center text-muted-foreground">This screen is being built: it will show your own data here.</CardContent>
      </Card>
    </div>
  );
}
