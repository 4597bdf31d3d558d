import { vi } from 'vitest';
import { MarkNotificationsReadSchema, type Notification, type NotificationList } from '#shared/contracts/notifications.ts';

/**
 * For jsdom tests: the notifications endpoints behind `fetch`, answering as the real server does
 * (its shared contract: newest first, the unread count, read by ids or all, strict bodies). The real
 * server is covered by notifications.int.test.ts and the browser test; here the bell is under test.
 */
export function installNotificationsServer(initial: Notification[]) {
  let items = [...initial];
  const requests: { method: string; path: string; body: unknown }[] = [];
  const respond = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const unreadCount = () => items.filter((n) => n.readAt === null).length;
  const list = (): NotificationList => ({
    items: [...items].sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
    unreadCount: unreadCount(),
  });

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const path = String(input);
    const method = init.method ?? 'GET';
    const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    requests.push({ method, path, body });
    if (method === 'GET' && path.startsWith('/api/v1/notifications')) return respond(200, list());
    if (method === 'POST' && path === '/api/v1/notifications/read') {
      const parsed = MarkNotificationsReadSchema.safeParse(body);
      if (!parsed.success) return respond(400, { error: { code: 'VALIDATION_FAILED', message: 'Invalid request' } });
      const at = new Date().toISOString();
      const read = parsed.data;
      items = items.map((n) => (n.readAt === null && ('all' in read || read.ids.includes(n.id)) ? { ...n, readAt: at } : n));
      return respond(200, { unreadCount: unreadCount() });
    }
    return respond(404, { error: { code: 'NOT_FOUND', message: `No route for ${method} ${path}` } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    requests,
    /** A notification arriving on the server (as the realtime event announces). */
    add: (notification: Notification) => {
      items.push(notification);
    },
  };
}
