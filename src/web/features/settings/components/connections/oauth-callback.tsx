import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { paths } from '#web/app/paths.ts';
import { Card, CardContent, CardHeader } from '#web/components/ui/card.tsx';
import { toast } from '#web/lib/toast.ts';
import { useFinishGoogle } from '../../calendar-api.ts';
import { useFinishAddToSlack } from '../../chat-connections-api.ts';
import { useFinishMicrosoft } from '../../teams-sync-api.ts';

/** What a provider's callback page says while it finishes, and the toast once it has. */
type CallbackTexts = {
  heading: string;
  pending: string;
  /** The toast's title; its description comes from the finished connection. */
  connected: string;
  /** Said when the failure carries no message of its own. */
  failed: string;
};

/** What the provider sent back (`?code=…&state=…`, or `?error=…`) the way its finish endpoint takes it. */
const callbackFields = (query: string) => {
  const search = new URLSearchParams(query);
  const code = search.get('code');
  const error = search.get('error');
  return { state: search.get('state') ?? '', ...(code ? { code } : {}), ...(error ? { error } : {}) };
};

/**
 * Where a provider sends the browser back after its sign-in (the redirect URI registered with it):
 * what it sent goes to the server once, with the signed-in person's token, which binds the connection
 * to them (the state is single use, so a second render must not send it again); then back to
 * Settings, where the connection shows. A refusal stays on this page with the server's words.
 */
function OAuthCallback({ texts, finish }: { texts: CallbackTexts; finish: (query: string) => Promise<string | undefined> }) {
  const { search } = useLocation();
  const navigate = useNavigate();
  const [problem, setProblem] = useState<string | null>(null);
  const sent = useRef(false);
  const started = useRef({ search, finish, texts });
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    const { search: query, finish: send, texts: said } = started.current;
    send(query).then(
      (description) => {
        toast.success(said.connected, { description });
        void navigate(paths.settings.href('profile'), { replace: true });
      },
      (error: unknown) => setProblem(error instanceof Error && error.message ? error.message : said.failed),
    );
  }, [navigate]);
  return (
    <div className="mx-auto max-w-xl py-10">
      <Card>
        <CardHeader>
          <h1 className="leading-none font-semibold">{texts.heading}</h1>
        </CardHeader>
        <CardContent className="grid gap-3 text-sm">
          {problem ? (
            <>
              <p role="alert" className="text-destructive">
                {problem}
              </p>
              <Link to={paths.settings.href('profile')} className="text-primary underline underline-offset-4">
                Back to Settings
              </Link>
            </>
          ) : (
            <p role="status" className="text-muted-foreground">
              {texts.pending}
            </p>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

/** Google's redirect URI (Connect with Google in the calendar card); the toast names the calendar. */
export function GoogleCalendarCallback() {
  const finish = useFinishGoogle();
  return (
    <OAuthCallback
      texts={{
        heading: 'Connecting Google Calendar',
        pending: 'Reading your calendar…',
        connected: 'Google Calendar connected',
        failed: 'Google Calendar could not be connected. Try again.',
      }}
      finish={async (query) => (await finish.mutateAsync(callbackFields(query))).label ?? undefined}
    />
  );
}

/** Microsoft's redirect URI (Teams meeting sync); Settings then shows the first sync's progress. */
export function MicrosoftCallback() {
  const finish = useFinishMicrosoft();
  return (
    <OAuthCallback
      texts={{
        heading: 'Connecting your Microsoft account',
        pending: 'Connecting…',
        connected: 'Microsoft account connected',
        failed: 'Your Microsoft account could not be connected. Try again.',
      }}
      finish={async (query) => (await finish.mutateAsync(callbackFields(query))).account ?? undefined}
    />
  );
}

/** "Add to Slack"'s redirect URI; Settings then opens with the channel picker. */
export function SlackCallback() {
  const finish = useFinishAddToSlack();
  return (
    <OAuthCallback
      texts={{
        heading: 'Add to Slack',
        pending: 'Finishing the connection with Slack…',
        connected: 'Slack added',
        failed: 'Slack could not be added. Try again.',
      }}
      // The server reads Slack's whole answer (its query string) itself.
      finish={async (query) => {
        await finish.mutateAsync(query);
        return 'Pick the channel to post to.';
      }}
    />
  );
}
