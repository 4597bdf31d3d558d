import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MeetingListItem, MeetingStats } from '#shared/contracts/meetings.ts';
import { SignedIn } from '#tests/support/web/test-auth.tsx';
import { RecentMeetings } from './recent-meetings.tsx';

vi.mock('#web/lib/supabase.ts', () => ({
  loadSupabase: async () => ({ auth: { getSession: async () => ({ data: { session: { access_token: 'token-1' } } }) } }),
}));

const sample = (n: number): MeetingListItem => ({
  id: `0b7e4c5a-1d2e-4f3a-8b9c-00000000000${n}`,
  title: `Sample meeting ${n}`,
  startedAt: '2026-12-01T10:00:00.000Z',
  durationSeconds: 1800,
  status: 'ready',
  source: 'sample',
  participants: [],
  summary: null,
  isSample: true,
  hasAudio: false,
  createdAt: '2026-12-01T10:00:00.000Z',
  teamId: null,
  processing: null,
});

const stats = (settingUp: boolean, samples: number): MeetingStats => ({
  meetings: 0,
  meetingsTranscribed: 0,
  hoursRecorded: 0,
  sampleMeetings: samples,
  samplesSettingUp: settingUp,
  storageBytes: 0,
  storagePercent: 0,
  insights: { keyPoints: 0, actionItems: 0, decisions: 0, topics: 0 },
});

/**
 * The meetings endpoints behind `fetch`: the samples are there once the stats have been asked
 * `askedBeforeReady` times (the first answer, and the dashboard's first list, always before).
 */
function installServer(askedBeforeReady: number) {
  let asked = 0;
  const respond = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const path = String(input);
      const ready = asked >= askedBeforeReady;
      if (path === '/api/v1/meetings/stats') {
        asked += 1;
        return respond(stats(!ready, ready ? 6 : 0));
      }
      if (path.startsWith('/api/v1/meetings?')) {
        const items = ready ? [sample(1), sample(2), sample(3)] : [];
        return respond({ items, total: items.length, page: 1, pageSize: 3 });
      }
      return new Response('{}', { status: 404 });
    }),
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Recent meetings on a new account’s first visit', () => {
  it('says the sample meetings are being set up, then shows them once they are', async () => {
    installServer(2);
    render(
      <SignedIn>
        <RecentMeetings />
      </SignedIn>,
    );
    expect((await screen.findByRole('status')).textContent).toBe('Setting up your sample meetings…');
    expect(screen.queryByText('No meetings recorded yet.')).toBeNull();
    expect(await screen.findByRole('link', { name: 'Sample meeting 1' }, { timeout: 5_000 })).toBeTruthy();
    expect(screen.queryByText('Setting up your sample meetings…')).toBeNull();
  });

  it('says there are no meetings when none are coming', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const path = String(input);
        const body = path === '/api/v1/meetings/stats' ? stats(false, 0) : { items: [], total: 0, page: 1, pageSize: 3 };
        return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
      }),
    );
    render(
      <SignedIn>
        <RecentMeetings />
      </SignedIn>,
    );
    expect(await screen.findByText('No meetings recorded yet.')).toBeTruthy();
    expect(screen.queryByText('Setting up your sample meetings…')).toBeNull();
  });
});
