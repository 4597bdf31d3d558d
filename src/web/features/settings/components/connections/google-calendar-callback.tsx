import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { paths } from '#web/app/paths.ts';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { toast } from '#web/lib/toast.ts';
import { useFinishGoogle } from '../../calendar-api.ts';

/**
 * Where Google sends the browser back (the redirect URI): the code and state go to the server with
 * the signed-in person's token, which binds the connection to them; then back to Settings.
 */
export function GoogleCalendarCallback() {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const finish = useFinishGoogle();
  const [error, setError] = useState<string | null>(null);
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    const code = search.get('code');
    const googleError = search.get('error');
    void finish.mutateAsync({ state: search.get('state') ?? '', ...(code ? { code } : {}), ...(googleError ? { error: googleError } : {}) }).then(
      (connection) => {
        toast.success('Google Calendar connected', { description: connection.label ?? undefined });
        void navigate(paths.settings.href('profile'), { replace: true });
      },
      (failure: Error) => setError(failure.message),
    );
  }, [finish, navigate, search]);
  return (
    <div className="mx-auto max-w-xl py-10">
      <Card>
        <CardHeader>
          <CardTitle>Connecting Google Calendar</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-3 text-sm">
          {error ? (
            <>
              <p role="alert" className="text-destructive">
                {error}
              </p>
              <Link to={paths.settings.href('profile')} className="text-primary underline underline-offset-4">
                Back to Settings
              </Link>
            </>
          ) : (
            <p className="text-muted-foreground">Reading your calendar…</p>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
