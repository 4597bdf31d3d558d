import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { paths } from '#web/app/paths.ts';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { toast } from '#web/lib/toast.ts';
import { useFinishMicrosoft } from '../../teams-sync-api.ts';

/**
 * Where Microsoft sends the browser back (the redirect URI): the code and state go to the server with
 * the signed-in person's token, which binds the connection to them; then back to Settings, where the
 * first sync's progress shows.
 */
export function MicrosoftCallback() {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const finish = useFinishMicrosoft();
  const [error, setError] = useState<string | null>(null);
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    const code = search.get('code');
    const refused = search.get('error');
    void finish.mutateAsync({ state: search.get('state') ?? '', ...(code ? { code } : {}), ...(refused ? { error: refused } : {}) }).then(
      (state) => {
        toast.success('Microsoft account connected', { description: state.account ?? undefined });
        void navigate(paths.settings.href('profile'), { replace: true });
      },
      (failure: Error) => setError(failure.message),
    );
  }, [finish, navigate, search]);
  return (
    <div className="mx-auto max-w-xl py-10">
      <Card>
        <CardHeader>
          <CardTitle>Connecting your Microsoft account</CardTitle>
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
            <p className="text-muted-foreground">Connecting…</p>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
