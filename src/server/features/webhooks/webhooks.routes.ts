import { webhookEndpoints } from '#shared/contracts/webhooks.ts';
import type { Router } from '#server/http/endpoint-route.ts';
import { caller } from '../auth/api-guard.ts';
import type { WebhooksService } from './webhooks.service.ts';

/** /api/v1/webhooks: Settings › Developers' outgoing webhooks. */
export function registerWebhookRoutes(route: Router, deps: { webhooks: WebhooksService }): void {
  const { webhooks } = deps;
  route(webhookEndpoints.create, async (request) => webhooks.create(caller(request).user.id, request.body));
  route(webhookEndpoints.list, async (request) => ({ endpoints: await webhooks.list(caller(request).user.id) }));
  route(webhookEndpoints.update, async (request) => webhooks.update(caller(request).user.id, request.params.id, request.body));
  route(webhookEndpoints.remove, async (request) => {
    await webhooks.remove(caller(request).user.id, request.params.id);
    return { ok: true as const };
  });
  route(webhookEndpoints.rotateSecret, async (request) => webhooks.rotateSecret(caller(request).user.id, request.params.id));
  route(webhookEndpoints.test, async (request) => webhooks.sendTest(caller(request).user.id, request.params.id));
  route(webhookEndpoints.deliveries, async (request) => ({ deliveries: await webhooks.deliveries(caller(request).user.id, request.params.id) }));
  route(webhookEndpoints.redeliver, async (request) => webhooks.redeliver(caller(request).user.id, request.params.id, request.params.deliveryId));
}
