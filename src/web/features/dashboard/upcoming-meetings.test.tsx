import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CalendarConnection, CalendarEvent } from '#shared/contracts/calendar.ts';
import { SignedIn } from '#tests/support/web/test-auth.tsx';
import { UpcomingMeetings } from './upcoming-meetings.tsx';

vi.mock('#web/lib/supabase.ts', () => ({
  loadSupabase: async () => ({ auth: { getSession: async () => ({ data: { session: { access_token: 'token-1' } } }) } }),
}));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const connection: CalendarConnection = {
  connected: true,
  kind: 'ics',
  label: 'calendar.example.com',
  lastSyncedAt: '2026-12-07T09:00:00.000Z',
  lastError: null,
  eventCount: 3,
  google: { available: false, redirectUri: 'http://localhost/settings/connections/google' },
};

const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
const event = (id: string, title: string, url: string | null, hours: number): CalendarEvent => ({
  id,
  title,
  start: inHours(hours),
  end: inHours(hours + 1),
  allDay: false,
  attendees: [],
  url,
  meetingId: null,
  seriesId: null,
  lastMeeting: null,
});

/** The calendar's two endpoints behind `fetch`, answering as the server's contract does. */
function installCalendar(events: CalendarEvent[]) {
  const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const path = new URL(String(input), 'http://localhost').pathname;
      if (path === '/api/v1/integrations/calendar') return json(connection);
      if (path === '/api/v1/calendar/events') return json({ events });
      return new Response(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'Not found.' } }), { status: 404 });
    }),
  );
}

describe('the dashboard’s upcoming meetings', () => {
  it('link each event to its calendar in a new tab, but only by an http(s) address', async () => {
    installCalendar([
      event('google', 'Weekly product sync', 'https://www.google.com/calendar/event?eid=d2Vla2x5', 1),
      event('ics', 'Design review', 'http://cal.example.com/events/42', 2),
      event('script', 'Budget check-in', 'javascript:alert(document.cookie)', 3),
      event('data', 'Hiring sync', 'data:text/html,<script>alert(1)</script>', 4),
      event('none', 'Lunch and learn', null, 5),
    ]);
    render(
      <SignedIn>
        <UpcomingMeetings />
      </SignedIn>,
    );
    const list = await screen.findByRole('list', { name: 'Upcoming meetings' });
    const link = (title: string) => within(list).getByText(title).closest('a');

    const google = link('Weekly product sync')!;
    expect(google.getAttribute('href')).toBe('https://www.google.com/calendar/event?eid=d2Vla2x5');
    expect(google.getAttribute('target')).toBe('_blank');
    expect(google.getAttribute('rel')).toBe('noopener noreferrer');
    expect(google.textContent).toBe('Weekly product sync (opens in your calendar in a new tab)');
    expect(link('Design review')!.getAttribute('href')).toBe('http://cal.example.com/events/42');

    // A script or data address, or none: the title is shown as plain text, with no link at all.
    for (const title of ['Budget check-in', 'Hiring sync', 'Lunch and learn']) {
      expect(link(title)).toBeNull();
    }
    expect(within(list).getAllByRole('link', { name: /^Record / })).toHaveLength(5);
  });
});
