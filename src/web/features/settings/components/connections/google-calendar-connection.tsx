import { CalendarIcon, CopyIcon, RefreshCwIcon } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import type { CalendarConnection } from '#shared/contracts/calendar.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { copyText } from '#web/lib/clipboard.ts';
import { toast } from '#web/lib/toast.ts';
import { startGoogle, useCalendarConnection, useConnectIcs, useDisconnectCalendar, useSyncCalendar } from '../../calendar-api.ts';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * The Google Calendar row of Connected Accounts: any calendar by its secret iCal address (Google,
 * Outlook, Fastmail, Nextcloud, iCloud), or Connect with Google where the server has an OAuth client.
 */
export function GoogleCalendarConnection() {
  const connection = useCalendarConnection();
  const [open, setOpen] = useState(false);
  const data = connection.data;
  return (
    <li className="grid gap-3 rounded-lg border p-3">
      <div className="flex items-center gap-3">
        <CalendarIcon className="size-5 text-muted-foreground" aria-hidden="true" />
        <div className="grid flex-1 gap-0.5">
          <span className="text-sm font-medium">Google Calendar</span>
          <span className="text-sm text-muted-foreground">
            {data?.connected ? `Connected: ${data.label ?? 'your calendar'}` : 'Schedule and record from calendar'}
          </span>
        </div>
        {data?.connected ? (
          <ConnectedActions />
        ) : (
          <Button variant="outline" size="sm" aria-label="Connect Google Calendar" aria-expanded={open} onClick={() => setOpen((o) => !o)} disabled={!data}>
            Connect
          </Button>
        )}
      </div>
      {connection.isError && <p className="text-sm text-destructive">The calendar connection could not be loaded. Reload the page to try again.</p>}
      {data?.connected && <ConnectionState connection={data} />}
      {data && !data.connected && open && <ConnectForm connection={data} onConnected={() => setOpen(false)} />}
    </li>
  );
}

function ConnectionState({ connection }: { connection: CalendarConnection }) {
  return (
    <div className="grid gap-1 text-sm text-muted-foreground">
      <span>
        {connection.lastSyncedAt ? `Last synced ${when.format(new Date(connection.lastSyncedAt))}` : 'Not synced yet'} · {connection.eventCount}{' '}
        {connection.eventCount === 1 ? 'event' : 'events'} · refreshed every 15 minutes
      </span>
      {connection.lastError && (
        <p role="alert" className="text-destructive">
          The last refresh failed: {connection.lastError}
        </p>
      )}
    </div>
  );
}

function ConnectedActions() {
  const sync = useSyncCalendar();
  const disconnect = useDisconnectCalendar();
  return (
    <div className="flex gap-2">
      <Button
        variant="outline"
        size="sm"
        disabled={sync.isPending}
        onClick={() =>
          sync.mutate(undefined, {
            onSuccess: (c) =>
              c.lastError ? toast.error('The calendar could not be refreshed', { description: c.lastError }) : toast.success('Calendar synced'),
            onError: (e) => toast.error(e.message),
          })
        }
      >
        <RefreshCwIcon className="size-4" aria-hidden="true" /> Sync now
      </Button>
      <Button
        variant="outline"
        size="sm"
        aria-label="Disconnect Google Calendar"
        disabled={disconnect.isPending}
        // Awaited rather than per-call callbacks: this button is gone once the calendar is disconnected.
        onClick={() =>
          void disconnect.mutateAsync().then(
            () => toast.success('Calendar disconnected'),
            (e: Error) => toast.error(e.message),
          )
        }
      >
        Disconnect
      </Button>
    </div>
  );
}

function ConnectForm({ connection, onConnected }: { connection: CalendarConnection; onConnected: () => void }) {
  const id = useId();
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const connect = useConnectIcs();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    // Awaited rather than per-call callbacks: this form is gone once the calendar is connected.
    void connect.mutateAsync(url).then(
      (c) => {
        toast.success('Calendar connected', {
          description: `${c.eventCount} ${c.eventCount === 1 ? 'event' : 'events'} read from ${c.label ?? 'your calendar'}`,
        });
        setUrl('');
        onConnected();
      },
      (e: Error) => setError(e.message),
    );
  };
  return (
    <div className="grid gap-4 border-t pt-3">
      <form onSubmit={submit} className="grid gap-2">
        <Label htmlFor={`${id}-ics`}>Secret address in iCal format</Label>
        <p className="text-sm text-muted-foreground">
          Works with any calendar, nothing to set up: in Google Calendar, open Settings › your calendar › Integrate calendar and copy “Secret address in iCal
          format”; in Outlook, Settings › Calendar › Shared calendars › Publish a calendar, then the ICS link. Parley keeps it encrypted and never shows it
          again.
        </p>
        <div className="flex gap-2">
          <Input
            id={`${id}-ics`}
            type="url"
            required
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="https://calendar.google.com/calendar/ical/…/basic.ics"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            autoComplete="off"
          />
          <Button type="submit" disabled={connect.isPending || url.trim() === ''}>
            {connect.isPending ? 'Connecting…' : 'Connect calendar'}
          </Button>
        </div>
        {error && (
          <p id={`${id}-error`} role="alert" className="text-sm text-destructive">
            {error}
          </p>
        )}
      </form>
      <GoogleSetup connection={connection} />
    </div>
  );
}

/** Connect with Google needs an OAuth client of the installation's own; without one, how to make it. */
function GoogleSetup({ connection }: { connection: CalendarConnection }) {
  const redirectUri = connection.google.redirectUri;
  const [starting, setStarting] = useState(false);
  if (connection.google.available) {
    return (
      <div className="grid gap-2 text-sm">
        <span className="font-medium">Or connect with Google</span>
        <p className="text-muted-foreground">
          Reads your primary Google calendar and adds follow-ups to it. Google asks you to allow access to your calendar events.
        </p>
        <div>
          <Button
            disabled={starting}
            onClick={() => {
              setStarting(true);
              void startGoogle().then(
                ({ authorizationUrl }) => window.location.assign(authorizationUrl),
                (e: Error) => {
                  setStarting(false);
                  toast.error(e.message);
                },
              );
            }}
          >
            {starting ? 'Opening Google…' : 'Connect with Google'}
          </Button>
        </div>
      </div>
    );
  }
  return (
    <div className="grid gap-2 text-sm">
      <span className="font-medium">Connect with Google</span>
      <p className="text-muted-foreground">
        Connect with Google (to add follow-ups to your calendar too) is not set up on this server. Its administrator can turn it on:
      </p>
      <ol className="ml-5 list-decimal space-y-1 text-muted-foreground">
        <li>In the Google Cloud console, create a project and enable the Google Calendar API.</li>
        <li>Under APIs &amp; Services › OAuth consent screen, configure it and add the scope …/auth/calendar.events.</li>
        <li>Under Credentials, create an OAuth client ID of type “Web application” with this authorized redirect URI:</li>
      </ol>
      <div className="flex items-center gap-2">
        <code className="min-w-0 flex-1 truncate rounded bg-muted px-2 py-1">{redirectUri}</code>
        <Button
          variant="outline"
          size="sm"
          aria-label="Copy the redirect URI"
          onClick={() =>
            void copyText(redirectUri).then((copied) => (copied ? toast.success('Redirect URI copied') : toast.error('Copy it by hand: the browser refused.')))
          }
        >
          <CopyIcon className="size-4" aria-hidden="true" /> Copy
        </Button>
      </div>
      <p className="text-muted-foreground">Then set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET on the server and restart it.</p>
    </div>
  );
}
