import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { microsoftTeamsEndpoints, slackEndpoints } from '#shared/contracts/chat-integrations.ts';
import type { Team } from '#shared/contracts/teams.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { api } from '#web/lib/api-client.ts';
import { formatDate } from '#web/lib/format.ts';
import { toast } from '#web/lib/toast.ts';

const SERVICES = [
  { key: 'slack', name: 'Slack', endpoints: slackEndpoints, placeholder: 'https://hooks.slack.com/services/…' },
  { key: 'teams', name: 'Microsoft Teams', endpoints: microsoftTeamsEndpoints, placeholder: 'https://….logic.azure.com:443/workflows/…' },
] as const;

const errorText = (error: unknown) => (error instanceof Error ? error.message : 'Something went wrong. Try again.');

/**
 * The team's Slack and Microsoft Teams channels: the notes of every meeting shared with the team are
 * posted there when ready. Its owner and admins connect them (a webhook URL, steps in Settings ›
 * Connected Accounts); members see where they go.
 */
export function TeamChannels({ team }: { team: Team }) {
  return (
    <ul aria-label="Team channels" className="grid gap-3">
      {SERVICES.map((service) => (
        <TeamChannel key={service.key} team={team} service={service} />
      ))}
    </ul>
  );
}

function TeamChannel({ team, service }: { team: Team; service: (typeof SERVICES)[number] }) {
  const client = useQueryClient();
  const key = ['team-channel', service.key, team.id];
  const state = useQuery({ queryKey: key, queryFn: ({ signal }) => api(service.endpoints.get, { query: { teamId: team.id } }, { signal }) });
  const connect = useMutation({
    mutationFn: (webhookUrl: string) => api(service.endpoints.connect, { body: { webhookUrl, teamId: team.id } }),
    onSuccess: (next) => client.setQueryData(key, next),
  });
  const disconnect = useMutation({
    mutationFn: () => api(service.endpoints.disconnect, { query: { teamId: team.id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
  const [url, setUrl] = useState('');
  const id = useId();
  const manages = team.role !== 'member';
  const data = state.data;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    connect.mutate(url, {
      onSuccess: () => {
        setUrl('');
        toast.success(`${service.name} connected for ${team.name}`);
      },
      onError: (error) => toast.error(`${service.name} was not connected`, { description: errorText(error) }),
    });
  };
  return (
    <li className="grid gap-2 rounded-lg border p-3">
      <div className="flex items-center gap-3">
        <span className="flex-1 text-sm font-medium">{service.name}</span>
        {manages && data?.connected && (
          <Button
            variant="outline"
            size="sm"
            aria-label={`Disconnect ${service.name} from ${team.name}`}
            disabled={disconnect.isPending}
            onClick={() => disconnect.mutate(undefined, { onError: (error) => toast.error('Not disconnected', { description: errorText(error) }) })}
          >
            Disconnect
          </Button>
        )}
      </div>
      {state.isError && <p className="text-sm text-destructive">{errorText(state.error)}</p>}
      {data?.connected ? (
        <>
          <p className="text-sm text-muted-foreground">
            Notes of meetings shared with {team.name} go to {data.destination}
            {data.connectedBy ? ` (connected by ${data.connectedBy})` : ''}.{' '}
            {data.lastPostAt ? `Last post: ${formatDate(data.lastPostAt)}.` : 'Nothing posted yet.'}
          </p>
          {data.lastError && (
            <p role="alert" className="text-sm text-destructive">
              The last post failed: {data.lastError}
            </p>
          )}
        </>
      ) : manages ? (
        <form className="grid gap-2" onSubmit={submit}>
          <Label htmlFor={`${id}-url`}>
            {service.name} webhook URL for {team.name}
          </Label>
          <div className="flex gap-2">
            <Input
              id={`${id}-url`}
              type="url"
              required
              autoComplete="off"
              placeholder={service.placeholder}
              value={url}
              onChange={(e) => setUrl(e.target.value)}
            />
            <Button type="submit" size="sm" disabled={connect.isPending}>
              Connect
            </Button>
          </div>
          <p className="text-sm text-muted-foreground">Settings › Connected Accounts says how to get one.</p>
        </form>
      ) : (
        data && <p className="text-sm text-muted-foreground">Not connected. The team’s owner and admins can connect a channel.</p>
      )}
    </li>
  );
}
