import { CopyIcon, RefreshCwIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { TeamsSyncState } from '#shared/contracts/teams-sync.ts';
import { Button } from '#web/components/ui/button.tsx';
import { copyText } from '#web/lib/clipboard.ts';
import { toast } from '#web/lib/toast.ts';
import { startMicrosoft, useDisconnectMicrosoft, useSyncTeams, useTeamsSync } from '../../teams-sync-api.ts';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const errorText = (error: unknown) => (error instanceof Error ? error.message : 'Something went wrong. Try again.');
const meetings = (n: number) => `${n} ${n === 1 ? 'meeting' : 'meetings'}`;

/**
 * The Microsoft Teams row's meeting sync: connect a Microsoft account (where the server has an app
 * registered), then its Teams meetings' transcripts are imported every hour and on "Sync now", with
 * the progress, the last sync and what went wrong. Without an app, how its administrator registers one.
 */
export function TeamsMeetingSync() {
  const query = useTeamsSync();
  const data = query.data;
  return (
    <section aria-label="Teams meeting sync" className="grid gap-2 border-t pt-3 text-sm">
      <span className="font-medium text-foreground">Meeting recordings from Teams</span>
      {query.isError && <p className="text-destructive">The Microsoft account connection could not be loaded. Reload the page to try again.</p>}
      {data && (data.connected ? <Connected state={data} /> : data.available ? <ConnectOffer /> : <Setup redirectUri={data.redirectUri} />)}
    </section>
  );
}

function ConnectButton({ label }: { label: string }) {
  const [starting, setStarting] = useState(false);
  return (
    <Button
      size="sm"
      disabled={starting}
      onClick={() => {
        setStarting(true);
        void startMicrosoft().then(
          ({ authorizationUrl }) => window.location.assign(authorizationUrl),
          (e: Error) => {
            setStarting(false);
            toast.error(e.message);
          },
        );
      }}
    >
      {starting ? 'Opening Microsoft…' : label}
    </Button>
  );
}

function ConnectOffer() {
  return (
    <div className="grid gap-2">
      <p className="text-muted-foreground">
        Connect your Microsoft account to import your Teams meetings: their transcripts with who said what, or the recording (transcribed here) when Teams made
        no transcript, and who attended. Parley looks for new ones every hour.
      </p>
      <div>
        <ConnectButton label="Connect Microsoft account" />
      </div>
    </div>
  );
}

function progressText(sync: NonNullable<TeamsSyncState['sync']>): string {
  if (sync.stage === 'importing' && sync.part && sync.parts) return `Syncing: importing meeting ${sync.part} of ${sync.parts}…`;
  if (sync.stage === 'finding meetings') return 'Syncing: finding your Teams meetings…';
  if (sync.stage === 'waiting to retry') return 'Syncing: waiting to try again…';
  return 'Sync queued…';
}

function Connected({ state }: { state: TeamsSyncState }) {
  const sync = useSyncTeams();
  const disconnect = useDisconnectMicrosoft();
  // A sync that was under way and has ended: say how it went.
  const wasSyncing = useRef(state.sync !== null);
  const tell = (ended: TeamsSyncState) => {
    if (ended.needsReconnect || (ended.lastError && ended.lastImported === 0))
      toast.error('The Teams sync did not finish', { description: ended.lastError ?? undefined });
    else toast.success('Teams meetings synced', { description: `${meetings(ended.lastImported)} imported` });
  };
  useEffect(() => {
    if (state.sync) {
      wasSyncing.current = true;
      return;
    }
    if (!wasSyncing.current) return;
    wasSyncing.current = false;
    tell(state);
  });

  return (
    <div className="grid gap-2">
      <p className="text-muted-foreground">Microsoft account: {state.account ?? 'connected'}</p>
      {state.sync ? (
        <p role="status" className="text-muted-foreground">
          {progressText(state.sync)}
        </p>
      ) : (
        <p className="text-muted-foreground">
          {state.lastSyncedAt ? `Last synced ${when.format(new Date(state.lastSyncedAt))}` : 'Not synced yet'} · {meetings(state.importedCount)} imported ·
          synced every hour
        </p>
      )}
      {state.lastError && (
        <p role="alert" className="rounded-md border border-destructive/50 p-2 text-destructive">
          {state.lastError}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        {state.needsReconnect ? (
          <ConnectButton label="Reconnect Microsoft account" />
        ) : (
          <Button
            variant="outline"
            size="sm"
            disabled={sync.isPending || state.sync !== null}
            onClick={() =>
              sync.mutate(undefined, {
                // Finished before it answered (a quick sync): said at once; otherwise when the progress ends.
                onSuccess: (answered) => {
                  if (answered.sync === null) tell(answered);
                },
                onError: (e) => toast.error('The Teams sync could not start', { description: errorText(e) }),
              })
            }
          >
            <RefreshCwIcon className="size-4" aria-hidden="true" /> Sync now
          </Button>
        )}
        <Button
          variant="outline"
          size="sm"
          aria-label="Disconnect Microsoft account"
          disabled={disconnect.isPending}
          onClick={() =>
            void disconnect.mutateAsync().then(
              () => toast.success('Microsoft account disconnected', { description: 'The meetings imported from Teams stay in Parley.' }),
              (e: Error) => toast.error(e.message),
            )
          }
        >
          Disconnect
        </Button>
      </div>
    </div>
  );
}

/** Without an app of the installation's own, how its administrator registers one. */
function Setup({ redirectUri }: { redirectUri: string }) {
  return (
    <div className="grid gap-2">
      <p className="text-muted-foreground">
        Importing Teams meeting recordings and transcripts needs a Microsoft account connection, which is not set up on this server. Its administrator can turn
        it on:
      </p>
      <ol className="ml-5 list-decimal space-y-1 text-muted-foreground">
        <li>In the Microsoft Entra admin center, open App registrations › New registration, and add a redirect URI of type Web:</li>
      </ol>
      <div className="flex items-center gap-2">
        <code className="min-w-0 flex-1 rounded bg-muted px-2 py-1 break-all text-foreground">{redirectUri}</code>
        <Button
          variant="outline"
          size="sm"
          aria-label="Copy the Microsoft redirect URI"
          onClick={() =>
            void copyText(redirectUri).then((copied) => (copied ? toast.success('Redirect URI copied') : toast.error('Copy it by hand: the browser refused.')))
          }
        >
          <CopyIcon className="size-4" aria-hidden="true" /> Copy
        </Button>
      </div>
      <ol start={2} className="ml-5 list-decimal space-y-1 text-muted-foreground">
        <li>
          Under API permissions, add the Microsoft Graph delegated permissions OnlineMeetings.Read, OnlineMeetingTranscript.Read.All,
          OnlineMeetingRecording.Read.All, Calendars.Read and offline_access, and grant admin consent for your organization.
        </li>
        <li>Under Certificates &amp; secrets, create a client secret.</li>
        <li>
          Set MICROSOFT_CLIENT_ID (the Application (client) ID) and MICROSOFT_CLIENT_SECRET on the server, and MICROSOFT_TENANT (the Directory (tenant) ID) to
          let only your organization in; then restart it.
        </li>
      </ol>
    </div>
  );
}
