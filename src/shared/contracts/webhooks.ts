import { z } from 'zod/mini';
import { defineEndpoint } from './endpoint.ts';

/**
 * Outgoing webhooks (Settings › Developers), signed by the Standard Webhooks spec: headers
 * `webhook-id`, `webhook-timestamp`, `webhook-signature`; body `{"type","timestamp","data"}`.
 */

/** The domain events that make sense outside Parley, as endpoints subscribe to them. */
export const WEBHOOK_EVENT_TYPES = [
  'meeting.created',
  'meeting.updated',
  'meeting.deleted',
  'transcript.ready',
  'notes.ready',
  'action_item.created',
  'action_item.updated',
  'action_item.completed',
  'decision.recorded',
] as const;
export const WebhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof WebhookEventTypeSchema>;

/** What "Send test event" sends, whatever the endpoint subscribed to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** Endpoints one person (or one team) may have. */
export const MAX_WEBHOOK_ENDPOINTS = 20;

export const CreateWebhookBodySchema = z.object({
  url: z.string().check(z.trim(), z.minLength(1, 'Enter the endpoint URL.'), z.maxLength(2000, 'The URL may be at most 2000 characters.')),
  events: z.array(WebhookEventTypeSchema).check(z.minLength(1, 'Choose at least one event.'), z.maxLength(WEBHOOK_EVENT_TYPES.length)),
  /** A team-wide endpoint (the team's owner and admins add them): it receives the events of meetings shared with the team. */
  teamId: z.optional(z.nullable(z.uuid())),
  description: z.optional(z.string().check(z.trim(), z.maxLength(200))),
});

export const UpdateWebhookBodySchema = z.object({
  url: z.optional(CreateWebhookBodySchema.shape.url),
  events: z.optional(CreateWebhookBodySchema.shape.events),
  description: z.optional(z.string().check(z.trim(), z.maxLength(200))),
  /** true re-enables an endpoint that was disabled after failing. */
  enabled: z.optional(z.boolean()),
});

export const WebhookEndpointSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  description: z.string(),
  events: z.array(WebhookEventTypeSchema),
  teamId: z.nullable(z.string()),
  enabled: z.boolean(),
  /** Why it was disabled (it kept failing), when it was. */
  disabledReason: z.nullable(z.string()),
  /** While a secret rotation's overlap lasts, deliveries carry signatures of both secrets until then. */
  previousSecretExpiresAt: z.nullable(z.string()),
  createdAt: z.string(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

export const WebhookDeliveryStatusSchema = z.enum(['pending', 'retrying', 'succeeded', 'failed']);

export const WebhookDeliverySchema = z.object({
  /** The `webhook-id` header: the same on every attempt and redelivery, so receivers can drop repeats. */
  id: z.string(),
  eventType: z.string(),
  status: WebhookDeliveryStatusSchema,
  attempts: z.number(),
  /** The last attempt's HTTP status; null when it got no answer (refused, timed out, unreachable). */
  responseCode: z.nullable(z.number()),
  /** Why the last attempt failed, in words. */
  error: z.nullable(z.string()),
  createdAt: z.string(),
  lastAttemptAt: z.nullable(z.string()),
  nextAttemptAt: z.nullable(z.string()),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

const IdParams = z.object({ id: z.uuid() });
const DeliveryParams = z.object({ id: z.uuid(), deliveryId: z.string().check(z.maxLength(100)) });
const tag = 'webhooks';

export const webhookEndpoints = {
  create: defineEndpoint({
    method: 'POST',
    path: '/api/v1/webhooks',
    body: CreateWebhookBodySchema,
    response: z.object({ id: z.uuid(), secret: z.string() }),
    status: 201,
    tag,
    summary: 'Adds an endpoint; answers its signing secret (whsec_…), shown once',
  }),
  list: defineEndpoint({
    method: 'GET',
    path: '/api/v1/webhooks',
    response: z.object({ endpoints: z.array(WebhookEndpointSchema) }),
    tag,
    summary: "The caller's endpoints and those of the teams they manage",
  }),
  update: defineEndpoint({
    method: 'PATCH',
    path: '/api/v1/webhooks/:id',
    params: IdParams,
    body: UpdateWebhookBodySchema,
    response: WebhookEndpointSchema,
    tag,
  }),
  remove: defineEndpoint({ method: 'DELETE', path: '/api/v1/webhooks/:id', params: IdParams, response: z.object({ ok: z.literal(true) }), tag }),
  rotateSecret: defineEndpoint({
    method: 'POST',
    path: '/api/v1/webhooks/:id/rotate-secret',
    params: IdParams,
    response: z.object({ secret: z.string(), previousSecretExpiresAt: z.string() }),
    tag,
    summary: 'A new signing secret; the old one keeps signing too for 24 hours',
  }),
  test: defineEndpoint({
    method: 'POST',
    path: '/api/v1/webhooks/:id/test',
    params: IdParams,
    response: WebhookDeliverySchema,
    status: 202,
    tag,
    summary: 'Sends a webhook.test event now',
  }),
  deliveries: defineEndpoint({
    method: 'GET',
    path: '/api/v1/webhooks/:id/deliveries',
    params: IdParams,
    response: z.object({ deliveries: z.array(WebhookDeliverySchema) }),
    tag,
    summary: 'The latest 50 deliveries to the endpoint, newest first',
  }),
  redeliver: defineEndpoint({
    method: 'POST',
    path: '/api/v1/webhooks/:id/deliveries/:deliveryId/redeliver',
    params: DeliveryParams,
    response: WebhookDeliverySchema,
    status: 202,
    tag,
    summary: 'Sends a delivery again now (same webhook-id)',
  }),
};
