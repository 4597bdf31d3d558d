import { Link } from 'react-router';
import { Logo } from '#web/components/logo.tsx';
import { Button } from '#web/components/ui/button.tsx';

/** /demo: a public, signed-out tour of a sample meeting (filled in with the meetings work). */
export default function DemoPage() {
  return (
    <div className="flex min-h-svh flex-col items-center justify-center gap-4 p-6 text-center">
      <Logo size="lg" />
      <h1 className="text-2xl font-semibold">Product tour</h1>
      <p className="max-w-md text-muted-foreground">The interactive tour of a sample meeting is on its way. Create a free account to try Parley with your own meetings.</p>
      <Button asChild>
        <Link to="/auth">Get Started</Link>
      </Button>
    </div>
  );
}
