import { cleanup, render, screen, within } from '@testing-library/react';
import type { BillingOverview } from '#shared/contracts/billing.ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignedIn } from '#tests/support/web/test-auth.tsx';
import { stubAppConfig } from '#tests/support/web/app-config.ts';
import { overviewPlan } from '#tests/support/web/billing-plans.ts';
import { AppShell } from './app-shell.tsx';

// The shell's live parts (the realtime socket, the notifications it fetches) are not this file's subject.
vi.mock('#web/lib/realtime/use-realtime.ts', () => ({ useRealtimeConnection: () => {} }));
vi.mock('./notification-bell.tsx', () => ({ NotificationBell: () => null }));
vi.mock('#web/lib/supabase.ts', () => ({
  loadSupabase: async () => ({ auth: { getSession: async () => ({ data: { session: { access_token: 'token-1' } } }) } }),
}));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A desktop-wide window: the sidebar, with its upgrade box, is on the page rather than in an overlay. */
function renderShell() {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: false,
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
  render(<AppShell />, { wrapper: ({ children }) => <SignedIn initialEntries={['/dashboard']}>{children}</SignedIn> });
  const heading = screen.getByText('Upgrade to Pro');
  const box = heading.parentElement;
  if (!box) throw new Error('the upgrade box has no frame');
  return within(box);
}

describe("the sidebar's 'Upgrade to Pro' box", () => {
  it('on a self-hosted installation says every feature is included, and shows the plans rather than an upgrade', () => {
    stubAppConfig({ billing: false });
    const box = renderShell();
    box.getByText('This installation is self-hosted: every feature is included.');
    expect(box.getByRole('link', { name: 'See what is included' }).getAttribute('href')).toBe('/pricing');
    expect(box.queryByRole('link', { name: 'Upgrade' })).toBeNull();
  });

  it('on an installation that bills, offers the upgrade to /pricing', () => {
    stubAppConfig({ billing: true });
    const box = renderShell();
    box.getByText('More transcription hours, advanced sentiment analysis and real-time transcription.');
    expect(box.getByRole('link', { name: 'Upgrade' }).getAttribute('href')).toBe('/pricing');
    expect(box.queryByText(/self-hosted/)).toBeNull();
  });

  it('for an account the administrator put on a plan, names the plan and its hours instead of saying everything is included', async () => {
    stubAppConfig({ billing: false });
    const overview: BillingOverview = {
      billing: false,
      plan: overviewPlan('free', 'administrator'),
      subscription: null,
      trialAvailable: false,
      paymentFailure: null,
      usage: { hoursThisMonth: 1.5, meetingsThisMonth: 1, periodStart: '2026-12-01T00:00:00.000Z', periodEnd: '2027-01-01T00:00:00.000Z', hiddenMeetings: 0 },
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) =>
        String(input) === '/api/v1/billing'
          ? new Response(JSON.stringify(overview), { status: 200, headers: { 'content-type': 'application/json' } })
          : new Response('{}', { status: 404 }),
      ),
    );
    const box = renderShell();
    await box.findByText('Your account is on the Free plan: 1.5 of 5 hours of transcription this month.');
    expect(box.getByRole('link', { name: 'See your plan' }).getAttribute('href')).toBe('/settings?tab=billing');
    expect(box.queryByText(/self-hosted/)).toBeNull();
  });
});
