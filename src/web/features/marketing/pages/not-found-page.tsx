import { ArrowLeftIcon, HomeIcon } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { MAIN_CONTENT_ID } from '#web/components/layout/skip-link.tsx';
import { Logo } from '#web/components/logo.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { paths } from '#web/app/paths.ts';

/** Any unknown path (spec §2): 'Page Not Found', 'Go to Dashboard' (to /, as the spec says) and 'Go Back'. */
export function NotFoundPage() {
  const navigate = useNavigate();
  return (
    <main
      id={MAIN_CONTENT_ID}
      tabIndex={-1}
      className="relative flex min-h-svh outline-none flex-col items-center justify-center overflow-hidden bg-gradient-to-b from-accent/60 to-background p-6 text-center"
    >
      <Link to={paths.home.href()} aria-label="Parley home" className="absolute top-6 left-1/2 -translate-x-1/2 rounded-md">
        <Logo size="sm" />
      </Link>
      <p aria-hidden="true" className="text-8xl font-bold tracking-tighter text-primary/20 sm:text-9xl">
        404
      </p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight sm:text-3xl">Page Not Found</h1>
      <p className="mt-3 max-w-md text-muted-foreground">The page you are looking for does not exist or has moved.</p>
      <div className="mt-8 flex flex-col gap-3 sm:flex-row">
        <Button size="lg" asChild>
          <Link to={paths.home.href()}>
            <HomeIcon aria-hidden="true" /> Go to Dashboard
          </Link>
        </Button>
        <Button size="lg" variant="outline" onClick={() => void navigate(-1)}>
          <ArrowLeftIcon aria-hidden="true" /> Go Back
        </Button>
      </div>
    </main>
  );
}
