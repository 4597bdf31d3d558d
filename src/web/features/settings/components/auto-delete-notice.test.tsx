import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SignedIn } from '#tests/support/web/test-auth.tsx';
import { installSettingsServer } from '#tests/support/web/settings-server.ts';
import { useUserSettings } from '../api.ts';
import { AutoDeleteNotice } from './auto-delete-notice.tsx';

vi.mock('#web/lib/supabase.ts', () => ({
  loadSupabase: async () => ({ auth: { getSession: async () => ({ data: { session: { access_token: 'token-1' } } }) } }),
}));

let server: ReturnType<typeof installSettingsServer>;
beforeEach(() => {
  server = installSettingsServer();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const MEETING = { createdAt: '2026-03-02T10:00:00.000Z', isSample: false };
const privacyLink = () => screen.getByRole('link', { name: 'Settings › Privacy' }).getAttribute('href');

describe('the auto-delete notice', () => {
  it('on /record: says a new account’s recordings go after 90 days, with a link to the Privacy tab', async () => {
    render(<AutoDeleteNotice />, { wrapper: SignedIn });
    const note = await screen.findByRole('note', { name: 'Auto-delete' });
    expect(note.textContent).toBe('Recordings are deleted automatically 90 days after they are made (auto-delete). Change this in Settings › Privacy.');
    expect(privacyLink()).toBe('/settings?tab=privacy');
  });

  it('on a meeting: gives the day it is deleted, counted from when it came in, for the period chosen', async () => {
    const { unmount } = render(<AutoDeleteNotice meeting={MEETING} />, { wrapper: SignedIn });
    expect((await screen.findByRole('note', { name: 'Auto-delete' })).textContent).toBe(
      'This meeting will be deleted on May 31, 2026 (auto-delete after 90 days). Change this in Settings › Privacy.',
    );
    expect(privacyLink()).toBe('/settings?tab=privacy');
    unmount();
    server.seed({ privacy: { autoDelete: '1year' } });
    render(<AutoDeleteNotice meeting={MEETING} />, { wrapper: SignedIn });
    expect((await screen.findByRole('note', { name: 'Auto-delete' })).textContent).toBe(
      'This meeting will be deleted on Mar 2, 2027 (auto-delete after 1 year). Change this in Settings › Privacy.',
    );
  });

  it('says nothing for a sample meeting (never deleted), or anywhere when auto-delete is off', async () => {
    const { unmount } = render(
      <>
        <SettingsLoaded />
        <AutoDeleteNotice meeting={{ ...MEETING, isSample: true }} />
      </>,
      { wrapper: SignedIn },
    );
    await screen.findByText('settings loaded');
    expect(screen.queryByRole('note', { name: 'Auto-delete' })).toBeNull();
    unmount();

    server.seed({ privacy: { autoDelete: 'never' } });
    render(
      <>
        <SettingsLoaded />
        <AutoDeleteNotice />
        <AutoDeleteNotice meeting={MEETING} />
      </>,
      { wrapper: SignedIn },
    );
    await screen.findByText('settings loaded');
    expect(screen.queryByRole('note', { name: 'Auto-delete' })).toBeNull();
  });
});

/** Shows once the settings are in the cache the notices read, so their absence means something. */
function SettingsLoaded() {
  return useUserSettings().data ? <span>settings loaded</span> : null;
}
