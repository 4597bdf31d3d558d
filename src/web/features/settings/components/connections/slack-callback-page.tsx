import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '#web/app/paths.ts';
import { Button } from '#web/components/ui/button.tsx';
import { toast } from '#web/lib/toast.ts';
import { finishAddToSlack } from '../../chat-connections-api.ts';

/**
 * Where Slack sends the browser back after "Add to Slack": what Slack sent (`?code=…&state=…`, or
 * `?error=…`) goes to the server once (the state is single use), then Settings opens with the
 * channel picker.
 */
export function SlackCallbackPage() {
  const navigate = useNavigate();
  const [problem, setProblem] = useState<string | null>(null);
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    finishAddToSlack(window.location.search).then(
      () => {
        toast.success('Slack added', { description: 'Pick the channel to post to.' });
        void navigate(paths.settings.href('profile'), { replace: true });
      },
      (error: unknown) => setProblem(error instanceof Error ? error.message : 'Slack could not be added. Try again.'),
    );
  }, [navigate]);
  return (
    <div className="mx-auto grid max-w-lg gap-4 py-10">
      <h1 className="text-2xl font-semibold">Add to Slack</h1>
      {problem ? (
        <>
          <p role="alert" className="text-sm text-destructive">
            {problem}
          </p>
          <Button asChild variant="outline" className="justify-self-start">
            <Link to={paths.settings.href('profile')}>Back to Settings</Link>
          </Button>
        </>
      ) : (
        <p role="status" className="text-sm text-muted-foreground">
          Finishing the connection with Slack…
        </p>
      )}
    </div>
  );
}
