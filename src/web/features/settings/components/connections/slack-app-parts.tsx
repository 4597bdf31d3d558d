import { useState } from 'react';
import type { ChatConnection } from '#shared/contracts/chat-integrations.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '#web/components/ui/select.tsx';
import { toast } from '#web/lib/toast.ts';
import { startAddToSlack, useChooseSlackChannel, useSlackApp, useSlackChannels } from '../../chat-connections-api.ts';

const errorText = (error: unknown) => (error instanceof Error ? error.message : 'Something went wrong. Try again.');

/**
 * "Add to Slack" when this server has a Slack app; otherwise exactly how its operator creates one,
 * with the redirect URI to copy.
 */
export function AddToSlack() {
  const app = useSlackApp();
  const [starting, setStarting] = useState(false);
  if (!app.data) return null;
  if (app.data.available)
    return (
      <div className="grid gap-1">
        <Button
          variant="secondary"
          size="sm"
          className="justify-self-start"
          disabled={starting}
          onClick={() => {
            setStarting(true);
            startAddToSlack().catch((error: unknown) => {
              setStarting(false);
              toast.error('Slack could not be added', { description: errorText(error) });
            });
          }}
        >
          Add to Slack
        </Button>
        <p className="text-sm text-muted-foreground">Posts as the Parley app to a channel you pick, and sends transcripts as files.</p>
      </div>
    );
  const redirectUri = app.data.redirectUri;
  return (
    <details className="text-sm text-muted-foreground">
      <summary className="cursor-pointer">“Add to Slack” (a channel picker, transcripts as files) is not set up on this server</summary>
      <ol className="mt-2 grid list-decimal gap-1 pl-5">
        <li>At api.slack.com › Your Apps, create an app “From scratch”.</li>
        <li>
          OAuth &amp; Permissions › Redirect URLs: add <code className="break-all">{redirectUri}</code>{' '}
          <Button
            variant="link"
            size="sm"
            className="h-auto p-0"
            onClick={() =>
              void navigator.clipboard.writeText(redirectUri).then(
                () => toast.success('Redirect URL copied'),
                () => toast.error('Copying failed: select the address and copy it.'),
              )
            }
          >
            Copy
          </Button>
        </li>
        <li>Bot Token Scopes: chat:write, chat:write.public, channels:read, groups:read, files:write.</li>
        <li>Set SLACK_CLIENT_ID and SLACK_CLIENT_SECRET (Basic Information › App Credentials) on the server and restart it.</li>
      </ol>
    </details>
  );
}

/** The Slack app's channel: picked from the channels it can see (conversations.list). */
export function SlackChannelPicker({ state }: { state: ChatConnection }) {
  const needsChannel = state.destination?.endsWith('(pick a channel)') ?? false;
  const [open, setOpen] = useState(needsChannel);
  const channels = useSlackChannels(open);
  const choose = useChooseSlackChannel();
  if (state.method !== 'app') return null;
  if (!open)
    return (
      <Button variant="link" size="sm" className="h-auto justify-self-start p-0" onClick={() => setOpen(true)}>
        Change channel
      </Button>
    );
  return (
    <div className="grid gap-1">
      <Label htmlFor="slack-channel">Slack channel</Label>
      {channels.isError && <p className="text-sm text-destructive">{errorText(channels.error)}</p>}
      <Select
        disabled={!channels.data || choose.isPending}
        onValueChange={(channelId) =>
          choose.mutate(channelId, {
            onSuccess: (next) => {
              setOpen(false);
              toast.success(`Posting to ${next.destination ?? 'the channel'}`);
            },
            onError: (error) => toast.error('The channel was not saved', { description: errorText(error) }),
          })
        }
      >
        <SelectTrigger id="slack-channel" className="w-64">
          <SelectValue placeholder={channels.isPending ? 'Loading channels…' : 'Pick a channel'} />
        </SelectTrigger>
        <SelectContent>
          {(channels.data?.channels ?? []).map((channel) => (
            <SelectItem key={channel.id} value={channel.id}>
              {channel.isPrivate ? '🔒 ' : '#'}
              {channel.name}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
