import { useState, type FormEvent } from 'react';
import { WEBHOOK_EVENT_TYPES, type WebhookEndpoint, type WebhookEventType } from '#shared/contracts/webhooks.ts';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Checkbox } from '#web/components/ui/checkbox.tsx';
import { FormError } from '#web/components/ui/form-error.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { ApiError } from '#web/lib/api-error.ts';
import { toast } from '#web/lib/toast.ts';
import { SelectField } from '../../components/select-field.tsx';
import {
  useCreateWebhook,
  useDeleteWebhook,
  useManagedTeams,
  useRedeliver,
  useRotateWebhookSecret,
  useTestWebhook,
  useUpdateWebhook,
  useWebhookDeliveries,
  useWebhookEndpoints,
} from '../api.ts';

const messageOf = (error: unknown) => (error instanceof ApiError ? error.message : undefined);

/** A secret shown once, after adding an endpoint or rotating its secret. */
function SecretOnce({ secret, note, onDone }: { secret: string; note: string; onDone: () => void }) {
  return (
    <div role="status" className="grid gap-2 rounded-lg border border-primary/40 bg-primary/5 p-3 text-sm">
      <p className="font-medium">{note}</p>
      <div className="flex flex-wrap items-center gap-2">
        <code aria-label="Signing secret" className="min-w-0 flex-1 break-all rounded bg-muted px-2 py-1">
          {secret}
        </code>
        <Button
          type="button"
          size="sm"
          variant="outline"
          onClick={() =>
            void navigator.clipboard.writeText(secret).then(
              () => toast.success('Secret copied'),
              () => toast.error('Copy it by hand.'),
            )
          }
        >
          Copy
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={onDone}>
          Done
        </Button>
      </div>
    </div>
  );
}

function DeliveryLog({ endpoint }: { endpoint: WebhookEndpoint }) {
  const deliveries = useWebhookDeliveries(endpoint.id);
  const redeliver = useRedeliver();
  if (deliveries.isPending) return <p className="text-sm text-muted-foreground">Loading deliveries…</p>;
  if (deliveries.isError) return <FormError>The deliveries could not be loaded.</FormError>;
  if (deliveries.data.length === 0) return <p className="text-sm text-muted-foreground">No deliveries yet. Send a test event to try the endpoint.</p>;
  return (
    <table className="w-full text-left text-sm" aria-label={`Deliveries to ${endpoint.url}`}>
      <thead className="text-muted-foreground">
        <tr>
          <th className="py-1 font-medium">Event</th>
          <th className="py-1 font-medium">Status</th>
          <th className="py-1 font-medium">Response</th>
          <th className="py-1 font-medium">Attempts</th>
          <th className="py-1 font-medium">Time</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {deliveries.data.map((d) => (
          <tr key={d.id} className="border-t align-top">
            <td className="py-1.5">
              <code>{d.eventType}</code>
            </td>
            <td className="py-1.5">
              <Badge variant={d.status === 'succeeded' ? 'default' : d.status === 'failed' ? 'destructive' : 'outline'}>{d.status}</Badge>
              {d.error && <p className="mt-1 text-xs text-muted-foreground">{d.error}</p>}
              {d.status === 'retrying' && d.nextAttemptAt && (
                <p className="text-xs text-muted-foreground">Next try {new Date(d.nextAttemptAt).toLocaleString()}</p>
              )}
            </td>
            <td className="py-1.5">{d.responseCode ?? '—'}</td>
            <td className="py-1.5">{d.attempts}</td>
            <td className="py-1.5">{new Date(d.lastAttemptAt ?? d.createdAt).toLocaleString()}</td>
            <td className="py-1.5 text-right">
              <Button
                size="sm"
                variant="ghost"
                disabled={redeliver.isPending || !endpoint.enabled}
                onClick={() =>
                  redeliver.mutate(
                    { id: endpoint.id, deliveryId: d.id },
                    { onError: (error) => toast.error('The delivery could not be sent again', { description: messageOf(error) }) },
                  )
                }
              >
                Redeliver
              </Button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function EndpointItem({ endpoint, teamName }: { endpoint: WebhookEndpoint; teamName: string | undefined }) {
  const [open, setOpen] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const test = useTestWebhook();
  const rotate = useRotateWebhookSecret();
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  return (
    <li className="grid gap-3 rounded-lg border p-3 text-sm" aria-label={`Webhook ${endpoint.url}`}>
      <div className="flex flex-wrap items-center gap-2">
        <code className="min-w-0 flex-1 break-all font-medium">{endpoint.url}</code>
        <Badge variant={endpoint.enabled ? 'default' : 'destructive'}>{endpoint.enabled ? 'Enabled' : 'Disabled'}</Badge>
        {endpoint.teamId && <Badge variant="outline">Team: {teamName ?? 'a team you manage'}</Badge>}
      </div>
      <p className="text-muted-foreground">Events: {endpoint.events.join(', ')}</p>
      {!endpoint.enabled && endpoint.disabledReason && <FormError>{endpoint.disabledReason}</FormError>}
      {endpoint.previousSecretExpiresAt && (
        <p className="text-muted-foreground">The previous secret also signs until {new Date(endpoint.previousSecretExpiresAt).toLocaleString()}.</p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          variant="outline"
          disabled={!endpoint.enabled || test.isPending}
          onClick={() =>
            test.mutate(endpoint.id, {
              onSuccess: () => {
                setOpen(true);
                toast.success('Test event sent');
              },
              onError: (error) => toast.error('The test event could not be sent', { description: messageOf(error) }),
            })
          }
        >
          Send test event
        </Button>
        <Button size="sm" variant="outline" onClick={() => setOpen(!open)} aria-expanded={open}>
          {open ? 'Hide deliveries' : 'Deliveries'}
        </Button>
        <Button
          size="sm"
          variant="outline"
          disabled={rotate.isPending}
          onClick={() =>
            rotate.mutate(endpoint.id, {
              onSuccess: (answer) => setSecret(answer.secret),
              onError: (error) => toast.error('The secret could not be rotated', { description: messageOf(error) }),
            })
          }
        >
          Rotate secret
        </Button>
        {!endpoint.enabled && (
          <Button size="sm" variant="outline" onClick={() => update.mutate({ id: endpoint.id, enabled: true })}>
            Enable
          </Button>
        )}
        <Button
          size="sm"
          variant="ghost"
          aria-label={`Delete webhook ${endpoint.url}`}
          disabled={remove.isPending}
          onClick={() =>
            remove.mutate(endpoint.id, {
              onSuccess: () => toast.success('Webhook endpoint deleted'),
              onError: (error) => toast.error('The endpoint could not be deleted', { description: messageOf(error) }),
            })
          }
        >
          Delete
        </Button>
      </div>
      {secret && (
        <SecretOnce
          secret={secret}
          note="The new signing secret, shown once. The old one keeps signing too for 24 hours, while you switch over."
          onDone={() => setSecret(null)}
        />
      )}
      {open && <DeliveryLog endpoint={endpoint} />}
    </li>
  );
}

/** Settings › Developers "Webhooks": endpoints that receive Parley's events, signed by the Standard Webhooks spec. */
export function WebhooksCard() {
  const endpoints = useWebhookEndpoints();
  const teams = useManagedTeams();
  const create = useCreateWebhook();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>(['notes.ready']);
  const [owner, setOwner] = useState('me');
  const [created, setCreated] = useState<string | null>(null);
  const ownerOptions = [{ value: 'me', label: 'Only my meetings' }, ...(teams.data ?? []).map((team) => ({ value: team.id, label: `Team: ${team.name}` }))];

  const onAdd = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { url: url.trim(), events, teamId: owner === 'me' ? null : owner },
      {
        onSuccess: (answer) => {
          setCreated(answer.secret);
          setUrl('');
        },
      },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Webhooks</CardTitle>
        <CardDescription>
          Parley POSTs each event you choose to your URL as JSON (<code>{'{"type","timestamp","data"}'}</code>), signed by the Standard Webhooks spec (
          <code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>): verify it with the <code>standardwebhooks</code> library and
          your endpoint's secret. Failed deliveries are retried for about a day; an endpoint failing for 3 days is disabled and you are told.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <form className="grid gap-4" onSubmit={onAdd} aria-label="New webhook endpoint">
          <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
            <div className="grid gap-2">
              <Label htmlFor="webhook-url">Endpoint URL</Label>
              <Input
                id="webhook-url"
                type="url"
                value={url}
                maxLength={2000}
                placeholder="https://example.com/parley-webhook"
                onChange={(e) => setUrl(e.target.value)}
              />
            </div>
            <SelectField id="webhook-owner" label="Events of" value={owner} options={ownerOptions} onChange={setOwner} />
          </div>
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">Events</legend>
            <div className="grid gap-2 sm:grid-cols-3">
              {WEBHOOK_EVENT_TYPES.map((type) => (
                <label key={type} className="flex items-center gap-2 text-sm">
                  <Checkbox
                    checked={events.includes(type)}
                    onCheckedChange={(checked) => setEvents(checked === true ? [...events, type] : events.filter((e) => e !== type))}
                  />
                  <code>{type}</code>
                </label>
              ))}
            </div>
          </fieldset>
          <div>
            <Button type="submit" disabled={url.trim() === '' || events.length === 0 || create.isPending}>
              Add endpoint
            </Button>
          </div>
        </form>
        {create.error && <FormError>{messageOf(create.error) ?? 'The endpoint could not be added.'}</FormError>}
        {created && <SecretOnce secret={created} note="Copy the endpoint's signing secret now: it will not be shown again." onDone={() => setCreated(null)} />}
        {endpoints.isPending ? (
          <p className="text-sm text-muted-foreground">Loading your webhooks…</p>
        ) : endpoints.isError ? (
          <FormError>Your webhooks could not be loaded.</FormError>
        ) : endpoints.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No webhook endpoints yet.</p>
        ) : (
          <ul className="grid gap-3" aria-label="Webhook endpoints">
            {endpoints.data.map((endpoint) => (
              <EndpointItem key={endpoint.id} endpoint={endpoint} teamName={teams.data?.find((team) => team.id === endpoint.teamId)?.name} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
