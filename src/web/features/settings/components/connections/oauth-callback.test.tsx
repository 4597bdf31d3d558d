import { cleanup, render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignedIn } from '#tests/support/web/test-auth.tsx';
import { toast } from '#web/lib/toast.ts';
import { GoogleCalendarCallback, MicrosoftCallback, SlackCallback } from './oauth-callback.tsx';

vi.mock('#web/lib/toast.ts', () => ({ toast: Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn(), info: vi.fn() }) }));
vi.mock('#web/lib/supabase.ts', () => ({
  loadSupabase: async () => ({ auth: { getSession: async () => ({ data: { session: { access_token: 'token-1' } } }) } }),
}));

// Each provider's redirect URI page: what the provider sent back goes to its finish endpoint once,
// then Settings opens with the provider's toast; a refusal stays with the server's words and a way
// back. The server's side of each flow: google-calendar.int.test.ts, teams-sync.int.test.ts,
// slack-app.int.test.ts; the whole round trip in the browser: calendar, teams-sync and
// chat-connections specs.

const respond = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const calendarConnection = {
  connected: true,
  kind: 'google',
  label: 'Ada Lovelace (ada@example.com)',
  lastSyncedAt: '2026-12-07T09:00:00.000Z',
  lastError: null,
  eventCount: 3,
  google: { available: true, redirectUri: 'http://localhost/settings/connections/google' },
};
const teamsSyncState = {
  available: true,
  redirectUri: 'http://localhost/settings/connections/microsoft',
  connected: true,
  account: 'Ada Lovelace (ada@contoso.com)',
  needsReconnect: false,
  lastSyncedAt: null,
  lastError: null,
  importedCount: 0,
  lastImported: 0,
  sync: null,
};
const slackConnection = {
  teamId: null,
  connected: true,
  method: 'app',
  destination: 'Acme (pick a channel)',
  connectedBy: 'Ada Lovelace',
  connectedAt: '2026-12-07T09:00:00.000Z',
  notesReady: true,
  shareLinks: false,
  lastPostAt: null,
  lastError: null,
  lastErrorAt: null,
};

const providers: {
  name: string;
  page: () => ReactElement;
  path: string;
  finish: string;
  heading: string;
  pending: string;
  connected: string;
  description: string;
  /** What the finish endpoint receives for `?code=c-1&state=s-1`. */
  sent: unknown;
  answer: unknown;
}[] = [
  {
    name: 'Google Calendar',
    page: () => <GoogleCalendarCallback />,
    path: '/settings/connections/google',
    finish: '/api/v1/integrations/calendar/google/finish',
    heading: 'Connecting Google Calendar',
    pending: 'Reading your calendar…',
    connected: 'Google Calendar connected',
    description: 'Ada Lovelace (ada@example.com)',
    sent: { state: 's-1', code: 'c-1' },
    answer: calendarConnection,
  },
  {
    name: 'Microsoft',
    page: () => <MicrosoftCallback />,
    path: '/settings/connections/microsoft',
    finish: '/api/v1/integrations/teams/account/finish',
    heading: 'Connecting your Microsoft account',
    pending: 'Connecting…',
    connected: 'Microsoft account connected',
    description: 'Ada Lovelace (ada@contoso.com)',
    sent: { state: 's-1', code: 'c-1' },
    answer: teamsSyncState,
  },
  {
    name: 'Slack',
    page: () => <SlackCallback />,
    path: '/integrations/slack/callback',
    finish: '/api/v1/integrations/slack/oauth/finish',
    heading: 'Add to Slack',
    pending: 'Finishing the connection with Slack…',
    connected: 'Slack added',
    description: 'Pick the channel to post to.',
    sent: { callback: '?code=c-1&state=s-1' },
    answer: slackConnection,
  },
];

function Where() {
  const location = useLocation();
  return <p>Now at {`${location.pathname}${location.search}`}</p>;
}

/** The callback page at `query`, with Settings beside it to land on; the finish endpoint answers `answer` after `gate`. */
function open(provider: (typeof providers)[number], query: string, answer: () => Response, gate: Promise<void> = Promise.resolve()) {
  const requests: { path: string; method: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      requests.push({ path: String(input), method: init.method ?? 'GET', body: init.body ? JSON.parse(String(init.body)) : undefined });
      await gate;
      return String(input) === provider.finish ? answer() : respond(404, { error: { code: 'NOT_FOUND', message: 'No route' } });
    }),
  );
  render(
    <SignedIn initialEntries={[`${provider.path}${query}`]}>
      <Routes>
        <Route path={provider.path} element={provider.page()} />
        <Route path="/settings" element={<Where />} />
      </Routes>
    </SignedIn>,
  );
  return { requests };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.mocked(toast.success).mockClear();
});

describe.each(providers)('the $name callback page', (provider) => {
  it('sends the code and state once, then opens Settings with the toast', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { requests } = open(provider, '?code=c-1&state=s-1', () => respond(200, provider.answer), gate);
    expect(screen.getByRole('heading', { level: 1, name: provider.heading })).toBeTruthy();
    expect((await screen.findByRole('status')).textContent).toBe(provider.pending);
    release();
    expect((await screen.findByText(/^Now at /)).textContent).toBe('Now at /settings?tab=profile');
    expect(requests).toEqual([{ path: provider.finish, method: 'POST', body: provider.sent }]);
    expect(vi.mocked(toast.success).mock.calls).toEqual([[provider.connected, { description: provider.description }]]);
  });

  it("shows the server's refusal with a way back to Settings", async () => {
    const message = 'The sign-in was refused (access_denied). Try again.';
    open(provider, '?error=access_denied&state=s-1', () => respond(400, { error: { code: 'VALIDATION_FAILED', message } }));
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(screen.getByRole('link', { name: 'Back to Settings' }).getAttribute('href')).toBe('/settings?tab=profile');
    expect(toast.success).not.toHaveBeenCalled();
  });
});
