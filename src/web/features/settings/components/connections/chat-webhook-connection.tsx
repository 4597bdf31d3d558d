import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import { Button } from '#web/components/ui/button.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Switch } from '#web/components/ui/switch.tsx';
import { formatDate } from '#web/lib/format.ts';
import { toast } from '#web/lib/toast.ts';
import type { ChatConnection } from '#shared/contracts/chat-integrations.ts';
import { useChatConnection, useChatConnectionActions, type ChatProvider } from '../../chat-connections-api.ts';

const errorText = (error: unknown) => (error instanceof Error ? error.message : 'Something went wrong. Try again.');
const when = (iso: string) => `${formatDate(iso)}, ${new Date(iso).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' })}`;

/**
 * One chat service's row in Connected Accounts: connect a channel by its webhook URL (how to get one
 * is said under the field), then where it posts, who connected it, the last post or the last error
 * with its fix, the options, "Send test" and "Disconnect". The URL is never shown again, only its host.
 */
export function ChatWebhookConnection({
  provider,
  name,
  description,
  icon: Icon,
  placeholder,
  howTo,
  note,
  alternative,
  connectedExtra,
}: {
  provider: ChatProvider;
  name: string;
  description: string;
  icon: LucideIcon;
  placeholder: string;
  /** How to get the webhook URL, step by step. */
  howTo: ReactNode;
  /** What else this service could do and cannot here yet, said plainly. */
  note?: ReactNode;
  /** Another way to connect, offered while not connected (Add to Slack). */
  alternative?: ReactNode;
  /** More about a connected channel (the Slack app's channel picker). */
  connectedExtra?: (state: ChatConnection) => ReactNode;
}) {
  const connection = useChatConnection(provider);
  const { connect, test, disconnect } = useChatConnectionActions(provider);
  const [editing, setEditing] = useState(false);
  const [url, setUrl] = useState('');
  const id = useId();
  const state = connection.data;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    connect.mutate(
      { webhookUrl: url },
      {
        onSuccess: () => {
          setEditing(false);
          setUrl('');
          toast.success(`${name} connected`, { description: 'Meeting notes will be posted there when they are ready.' });
        },
        onError: (error) => toast.error(`${name} was not connected`, { description: errorText(error) }),
      },
    );
  };
  const setOption = (patch: { notesReady?: boolean; shareLinks?: boolean }) =>
    connect.mutate(patch, { onError: (error) => toast.error('The change was not saved', { description: errorText(error) }) });

  return (
    <li className="grid gap-3 rounded-lg border p-3" aria-labelledby={`${id}-name`}>
      <div className="flex items-center gap-3">
        <Icon className="size-5 text-muted-foreground" aria-hidden="true" />
        <div className="grid flex-1 gap-0.5">
          <span id={`${id}-name`} className="text-sm font-medium">
            {name}
          </span>
          <span className="text-sm text-muted-foreground">
            {state?.connected
              ? `Posting to ${state.destination ?? 'a channel'}${state.connectedBy ? ` · connected by ${state.connectedBy}` : ''}`
              : description}
          </span>
        </div>
        {state?.connected ? (
          <Button
            variant="outline"
            size="sm"
            aria-label={`Disconnect ${name}`}
            disabled={disconnect.isPending}
            onClick={() =>
              disconnect.mutate(undefined, {
                onSuccess: () => toast.success(`${name} disconnected`),
                onError: (error) => toast.error(`${name} was not disconnected`, { description: errorText(error) }),
              })
            }
          >
            Disconnect
          </Button>
        ) : (
          !editing && (
            <Button variant="outline" size="sm" aria-label={`Connect ${name}`} disabled={!state} onClick={() => setEditing(true)}>
              Connect
            </Button>
          )
        )}
      </div>
      {connection.isError && <p className="text-sm text-destructive">{errorText(connection.error)}</p>}
      {state && !state.connected && editing && (
        <form className="grid gap-2" onSubmit={submit}>
          <Label htmlFor={`${id}-url`}>{name} webhook URL</Label>
          <Input
            id={`${id}-url`}
            type="url"
            required
            autoComplete="off"
            spellCheck={false}
            placeholder={placeholder}
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            aria-describedby={`${id}-how`}
          />
          <div id={`${id}-how`} className="text-sm text-muted-foreground">
            {howTo}
          </div>
          <div className="flex gap-2">
            <Button type="submit" size="sm" disabled={connect.isPending}>
              {connect.isPending ? 'Connecting…' : 'Connect'}
            </Button>
            <Button type="button" variant="ghost" size="sm" onClick={() => setEditing(false)}>
              Cancel
            </Button>
          </div>
        </form>
      )}
      {state && !state.connected && alternative}
      {state?.connected && connectedExtra?.(state)}
      {state?.connected && (
        <div className="grid gap-2">
          <p className="text-sm text-muted-foreground">{state.lastPostAt ? `Last post: ${when(state.lastPostAt)}` : 'Nothing posted yet.'}</p>
          {state.lastError && (
            <p role="alert" className="rounded-md border border-destructive/50 p-2 text-sm text-destructive">
              {state.lastErrorAt ? `The last post failed (${when(state.lastErrorAt)}): ` : 'The last post failed: '}
              {state.lastError}
            </p>
          )}
          <div className="flex items-center justify-between gap-4">
            <Label htmlFor={`${id}-notes`}>Post notes when they are ready</Label>
            <Switch
              id={`${id}-notes`}
              checked={state.notesReady}
              disabled={connect.isPending}
              onCheckedChange={(checked) => setOption({ notesReady: checked })}
            />
          </div>
          <div className="flex items-center justify-between gap-4">
            <Label htmlFor={`${id}-share`}>Link to a share link (readable without a Parley account)</Label>
            <Switch
              id={`${id}-share`}
              checked={state.shareLinks}
              disabled={connect.isPending}
              onCheckedChange={(checked) => setOption({ shareLinks: checked })}
            />
          </div>
          <div>
            <Button
              variant="outline"
              size="sm"
              disabled={test.isPending}
              onClick={() =>
                test.mutate(undefined, {
                  onSuccess: (result) =>
                    result.lastError
                      ? toast.error('The test message failed', { description: result.lastError })
                      : toast.success(`Test message sent to ${name}`),
                  onError: (error) => toast.error('The test message failed', { description: errorText(error) }),
                })
              }
            >
              {test.isPending ? 'Sending…' : 'Send test message'}
            </Button>
          </div>
        </div>
      )}
      {note && <div className="text-sm text-muted-foreground">{note}</div>}
    </li>
  );
}
