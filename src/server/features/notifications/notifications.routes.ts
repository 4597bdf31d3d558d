import type { FastifyReply } from 'fastify';
import { notificationEndpoints } from '#shared/contracts/notifications.ts';
import type { Router } from '#server/http/endpoint-route.ts';
import { caller } from '../auth/api-guard.ts';
import type { NotificationsService } from './notifications.service.ts';
import { confirmPage, donePage, invalidPage } from './unsubscribe-page.ts';

const html = (reply: FastifyReply, status: number, body: string) =>
  reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    // The token names a person: never cached, never sent on as a referrer.
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .send(body);

/**
 * The bell's list and its "mark read", for the signed-in caller's own notifications only; and the
 * unsubscribe link of every notification email, which works without signing in (the token is signed).
 */
export function registerNotificationRoutes(route: Router, deps: { notifications: NotificationsService; publicUrl: string }): void {
  const { notifications } = deps;
  const publicUrl = deps.publicUrl.replace(/\/+$/, '');
  route(notificationEndpoints.list, async (request) => notifications.list(caller(request).user.id, request.query.limit));
  route(notificationEndpoints.markRead, async (request) => notifications.markRead(caller(request).user.id, request.body));

  route(notificationEndpoints.unsubscribePage, async (request, reply) => {
    const target = await notifications.unsubscribeTarget(request.query.token);
    if (!target) return html(reply, 404, invalidPage());
    return html(reply, 200, confirmPage({ label: target.label, email: target.email, publicUrl }));
  });
  // RFC 8058: a mail client POSTs "List-Unsubscribe=One-Click" here; the page's button posts an empty form. Either unsubscribes.
  route(notificationEndpoints.unsubscribe, async (request, reply) => {
    const target = await notifications.unsubscribeTarget(request.query.token);
    if (!target) return html(reply, 404, invalidPage());
    await notifications.unsubscribe(target);
    return html(reply, 200, donePage({ label: target.label, email: target.email, publicUrl }));
  });
}
