import { PageHeader } from '#web/components/layout/page-header.tsx';
import { Card, CardContent } from '#web/components/ui/card.tsx';

/** /settings (spec §2). The full screen arrives with the meetings work (issue 3); this is its frame. */
export default function SettingsPage() {
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title="Settings" description="Manage your profile, notifications, recording, privacy and billing." />
      <Card>
        <CardContent className="py-10 text-center text-muted-foreground">This screen is being built: it will show your own data here.</CardContent>
      </Card>
    </div>
  );
}
