import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BellIcon } from 'lucide-react';
import { useNavigate } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import { notificationEndpoints, type Notification, type NotificationList } from '#shared/contracts/notifications.ts';
import { Button } from '#web/components/ui/button.tsx';
import { DeferredDropdownMenu } from '#web/components/ui/deferred-dropdown-menu.tsx';
import { api } from '#web/lib/api-client.ts';
import { useAuth } from '#web/lib/auth/use-auth.ts';
import { NOTIFICATIONS_KEY } from '#web/lib/query-keys.ts';
import { cn } from '#web/lib/utils.ts';

const keyOf = (userId: string) => [...NOTIFICATIONS_KEY, userId] as const;

const timeFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/** "Just now", "5 min ago", "3 h ago", else the date and time. */
function when(iso: string, now = Date.now()): string {
  const minutes = Math.round((now - Date.parse(iso)) / 60_000);
  if (minutes < 1) return 'Just now';
  if (minutes < 60) return `${minutes} min ago`;
  if (minutes < 24 * 60) return `${Math.round(minutes / 60)} h ago`;
  return timeFormat.format(new Date(iso));
}

/**
 * The bell in the app's header: the unread count on it, a menu of the newest notifications (arrow
 * keys move through them, Enter opens one), each opening its link and marking it read, and "Mark all
 * as read". A new notification arrives over /realtime (use-realtime.ts refreshes this list).
 */
export function NotificationBell() {
  const { user } = useAuth();
  const userId = user?.id ?? '';
  const client = useQueryClient();
  const navigate = useNavigate();
  const query = useQuery({
    queryKey: keyOf(userId),
    queryFn: ({ signal }) => api(notificationEndpoints.list, { query: { limit: 20 } }, { signal }),
    enabled: Boolean(user),
  });
  const markRead = useMutation({
    mutationFn: (body: { ids: string[] } | { all: true }) => api(notificationEndpoints.markRead, { body }),
    onMutate: (body) => {
      // Read at once on screen; the server's count follows.
      const at = new Date().toISOString();
      client.setQueryData<NotificationList>(keyOf(userId), (list) => {
        if (!list) return list;
        const read = (n: Notification) => ('all' in body || body.ids.includes(n.id)) && n.readAt === null;
        const changed = list.items.filter(read).length;
        return { items: list.items.map((n) => (read(n) ? { ...n, readAt: at } : n)), unreadCount: Math.max(0, list.unreadCount - changed) };
      });
    },
    onError: () => toast.error('Could not mark notifications as read. Please try again.'),
    onSettled: () => client.invalidateQueries({ queryKey: keyOf(userId) }),
  });

  if (!user) return null;
  const items = query.data?.items ?? [];
  const unread = query.data?.unreadCount ?? 0;
  const open = (notification: Notification) => {
    if (notification.readAt === null) markRead.mutate({ ids: [notification.id] });
    void navigate(notification.link);
  };

  return (
    // Not modal: the page behind stays in the accessibility tree (a modal menu hides it with aria-hidden while its links stay focusable).
    <DeferredDropdownMenu
      modal={false}
      trigger={
        <Button variant="ghost" size="icon" className="relative" aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}>
          <BellIcon aria-hidden="true" />
          {unread > 0 && (
            <span
              aria-hidden="true"
              data-testid="notification-count"
              className="absolute -top-0.5 -right-0.5 flex h-4 min-w-4 items-center justify-center rounded-full bg-destructive px-1 text-[10px] leading-none font-semibold text-white"
            >
              {unread > 99 ? '99+' : unread}
            </span>
          )}
        </Button>
      }
    >
      {(menu) => (
        <menu.DropdownMenuContent align="end" className="w-80 max-w-[calc(100vw-2rem)]">
          <menu.DropdownMenuLabel className="flex items-center justify-between">
            <span>Notifications</span>
            {unread > 0 && <span className="text-xs font-normal text-muted-foreground">{unread} unread</span>}
          </menu.DropdownMenuLabel>
          <menu.DropdownMenuSeparator />
          {query.isPending ? (
            <p className="px-2 py-3 text-sm text-muted-foreground">Loading notifications…</p>
          ) : query.isError ? (
            <p className="px-2 py-3 text-sm text-muted-foreground">Notifications could not be loaded.</p>
          ) : items.length === 0 ? (
            <p className="px-2 py-3 text-sm text-muted-foreground">No notifications yet.</p>
          ) : (
            <div className="max-h-96 overflow-y-auto">
              {items.map((notification) => (
                <menu.DropdownMenuItem key={notification.id} onSelect={() => open(notification)} className="items-start gap-2 py-2">
                  <span
                    aria-hidden="true"
                    className={cn('mt-1.5 size-2 shrink-0 rounded-full', notification.readAt === null ? 'bg-primary' : 'bg-transparent')}
                  />
                  <span className="grid min-w-0 gap-0.5">
                    <span className={cn('text-sm', notification.readAt === null && 'font-medium')}>
                      {notification.readAt === null && <span className="sr-only">Unread: </span>}
                      {notification.title}
                    </span>
                    <span className="line-clamp-2 text-xs text-muted-foreground">{notification.body}</span>
                    <span className="text-xs text-muted-foreground">{when(notification.createdAt)}</span>
                  </span>
                </menu.DropdownMenuItem>
              ))}
            </div>
          )}
          <menu.DropdownMenuSeparator />
          <menu.DropdownMenuItem disabled={unread === 0} onSelect={() => markRead.mutate({ all: true })}>
            Mark all as read
          </menu.DropdownMenuItem>
        </menu.DropdownMenuContent>
      )}
    </DeferredDropdownMenu>
  );
}
