import { WEBHOOK_EVENT_TYPES } from '#shared/contracts/webhooks.ts';
import type { DomainEvents } from '#server/events/domain-events.ts';
import type { WebhooksService } from './webhooks.service.ts';

/** Outgoing webhooks: each event endpoints may want becomes deliveries to them. */
export function subscribeWebhooks(events: DomainEvents, webhooks: WebhooksService): void {
  events.subscribe('webhooks', WEBHOOK_EVENT_TYPES, async (event) => webhooks.fanOut(event));
}
