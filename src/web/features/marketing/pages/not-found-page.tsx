import { Link, useNavigate } from 'react-router';
import { Logo } from '#web/components/logo.tsx';
import { Button } from '#web/components/ui/button.tsx';

/** Any unknown path (spec §2): 'Page Not Found', 'Go to Dashboard' (to /) and 'Go Back'. */
export default function NotFoundPage() {
  const navigate = useNavigate();
  return (
    <main className="flex min-h-svh flex-col items-center justify-center gap-4 p-6 text-center">
      <Logo size="md" />
      <p className="text-6xl font-bold text-primary">404</p>
      <h1 className="text-2xl font-semibold">Page Not Found</h1>
      <p className="max-w-md text-muted-foreground">The page you are looking for does not exist or has moved.</p>
      <div className="flex gap-2">
        <Button asChild>
          <Link to="/">Go to Dashboard</Link>
        </Button>
        <Button variant="outline" onClick={() => void navigate(-1)}>
          Go Back
        </Button>
      </div>
    </main>
  );
}
