import { Link } from 'react-router';
import { MAIN_CONTENT_ID } from '#web/components/layout/skip-link.tsx';
import { Logo } from '#web/components/logo.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { useDemoMeeting } from '../api.ts';
import { MeetingView } from '../components/meeting-view.tsx';
import { paths } from '#web/app/paths.ts';

/** /demo: a public, signed-out tour of a sample meeting, as it looks inside Parley. */
export function DemoPage() {
  const { data, isError } = useDemoMeeting();
  return (
    <div className="min-h-svh bg-muted/20">
      <header className="border-b bg-background">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4">
          <Link to={paths.home.href()} aria-label="Parley home">
            <Logo size="sm" />
          </Link>
          <Button asChild>
            <Link to={paths.auth.href('signup')}>Get Started</Link>
          </Button>
        </div>
      </header>
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="mx-auto grid max-w-6xl gap-6 px-4 py-8 outline-none">
        <div className="rounded-lg border bg-background p-4 text-sm">
          <p className="font-medium">Product tour</p>
          <p className="text-muted-foreground">
            This is a sample meeting as Parley shows it after recording: who said what, a summary, key points, action items with owners and due dates, and
            decisions.
          </p>
        </div>
        {isError ? (
          <p role="alert" className="text-destructive">
            The tour could not be loaded. Try again in a moment.
          </p>
        ) : data ? (
          <MeetingView meeting={data} currentMs={null} />
        ) : (
          <Skeleton className="h-96" />
        )}
      </main>
    </div>
  );
}
