import { PageHeader } from '#web/components/layout/page-header.tsx';
import { Card, CardContent } from '#web/components/ui/card.tsx';

/** /record (spec §2). The full screen arrives with the meetings work (issue 3); this is its frame. */
export default function RecordPage() {
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title="Record Meeting" description="Record a meeting in your browser or upload a recording." />
      <Card>
        <CardContent className="py-10 text-center text-muted-foreground">This screen is being built: it will show your own data here.</CardContent>
      </Card>
    </div>
  );
}
