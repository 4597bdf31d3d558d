import { Link } from 'react-router';
import { Button } from '#web/components/ui/button.tsx';
import { paths } from './paths.ts';

/** Shown when a page fails to load or throws: says so plainly and offers a way on. */
export function RouteError({ error }: { error: unknown }) {
  const chunkFailed = error instanceof Error && /dynamically imported module|Failed to fetch/i.test(error.message);
  const message = chunkFailed ? 'Parley was updated or the connection dropped. Reload the page to continue.' : 'Something went wrong on this page.';
  return (
    <div role="alert" className="flex min-h-svh flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-2xl font-semibold">Something went wrong</h1>
      <p className="max-w-md text-muted-foreground">{message}</p>
      <div className="flex gap-2">
        <Button onClick={() => window.location.reload()}>Reload</Button>
        <Button variant="outline" asChild>
          <Link to={paths.home.href()}>Home</Link>
        </Button>
      </div>
    </div>
  );
}
