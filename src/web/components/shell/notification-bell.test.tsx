import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Notification } from '#shared/contracts/notifications.ts';
import { AuthContext, type AuthContextValue } from '#web/lib/auth/auth-context.ts';
import { NOTIFICATIONS_KEY } from '#web/lib/query-keys.ts';
import { installNotificationsServer } from '#tests/support/web/notifications-server.ts';
import { testUser } from '#tests/support/web/test-auth.tsx';
import { NotificationBell } from './notification-bell.tsx';

vi.mock('#web/lib/toast.ts', () => ({ toast: Object.assign(vi.fn(), { error: vi.fn(), success: vi.fn() }) }));
vi.mock('#web/lib/supabase.ts', () => ({
  loadSupabase: async () => ({ auth: { getSession: async () => ({ data: { session: { access_token: 'token-1' } } }) } }),
}));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const MEETING = '0b6d2c4e-5f3a-4b7c-8d9e-0f1a2b3c4d5e';
const notification = (id: number, overrides: Partial<Notification> = {}): Notification => ({
  id: `00000000-0000-4000-8000-00000000000${id}`,
  kind: 'action_item',
  title: `Notice ${id}`,
  body: `Body ${id}`,
  link: `/meetings/${MEETING}?t=${id * 1000}`,
  createdAt: new Date(Date.now() - (10 - id) * 60_000).toISOString(),
  readAt: null,
  ...overrides,
});

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname + location.search}</p>;
}

function renderBell() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const auth = { user: testUser(), session: null, loading: false } as unknown as AuthContextValue;
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <AuthContext.Provider value={auth}>
        <MemoryRouter initialEntries={['/dashboard']}>
          {children}
          <Routes>
            <Route path="*" element={<Where />} />
          </Routes>
        </MemoryRouter>
      </AuthContext.Provider>
    </QueryClientProvider>
  );
  render(<NotificationBell />, { wrapper });
  return client;
}

const bell = () => screen.getByRole('button', { name: /^Notifications/ });
async function openMenu() {
  await act(async () => {
    fireEvent.keyDown(bell(), { key: 'Enter' });
  });
  return screen.findByRole('menu');
}

describe('the notification bell', () => {
  it('shows the unread count; the menu lists the newest first; choosing one opens its link and marks it read', async () => {
    const server = installNotificationsServer([
      notification(1, { title: 'Action item for you in “Budget”', readAt: '2026-11-24T00:00:00.000Z' }),
      notification(2, { kind: 'mention', title: 'You were mentioned in “Standup”' }),
      notification(3, { kind: 'team_invitation', title: 'Ines invited you to Design', link: '/invite/abc' }),
    ]);
    renderBell();
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications, 2 unread'));
    expect(screen.getByTestId('notification-count').textContent).toBe('2');

    const menu = await openMenu();
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Unread: Ines invited you to Design/),
      expect.stringMatching(/^Unread: You were mentioned in “Standup”/),
      expect.stringMatching(/^Action item for you in “Budget”/),
      'Mark all as read',
    ]);
    // Opened from the keyboard, the menu starts at the newest; the arrow keys move on, Enter opens.
    await waitFor(() => expect(document.activeElement?.textContent).toMatch(/Ines invited you/));
    await act(async () => {
      fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    });
    await waitFor(() => expect(document.activeElement?.textContent).toMatch(/You were mentioned/));
    await act(async () => {
      fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    });
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe(`/meetings/${MEETING}?t=2000`));
    expect(server.requests.filter((r) => r.method === 'POST')).toEqual([
      { method: 'POST', path: '/api/v1/notifications/read', body: { ids: [notification(2).id] } },
    ]);
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications, 1 unread'));
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('“Mark all as read” clears the count; a new notification raises it again when the list is refreshed (the realtime event does that)', async () => {
    const server = installNotificationsServer([notification(1), notification(2)]);
    const client = renderBell();
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications, 2 unread'));
    const menu = await openMenu();
    await act(async () => {
      fireEvent.click(within(menu).getByRole('menuitem', { name: 'Mark all as read' }));
    });
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications'));
    expect(screen.queryByTestId('notification-count')).toBeNull();
    expect(server.requests.at(-2)).toEqual({ method: 'POST', path: '/api/v1/notifications/read', body: { all: true } });
    expect(screen.getByTestId('where').textContent).toBe('/dashboard');

    server.add(notification(5, { title: 'Fresh news' }));
    await act(async () => {
      await client.invalidateQueries({ queryKey: NOTIFICATIONS_KEY });
    });
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications, 1 unread'));
    const again = await openMenu();
    expect(within(again).getByRole('menuitem', { name: 'Mark all as read' }).getAttribute('aria-disabled')).toBeNull();
    expect(within(again).getAllByRole('menuitem')[0]!.textContent).toMatch(/^Unread: Fresh news/);
  });

  it('says so when there is nothing yet, and “Mark all as read” is then unavailable', async () => {
    installNotificationsServer([]);
    renderBell();
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications'));
    const menu = await openMenu();
    expect(await within(menu).findByText('No notifications yet.')).toBeTruthy();
    expect(within(menu).getByRole('menuitem', { name: 'Mark all as read' }).getAttribute('aria-disabled')).toBe('true');
  });
});
