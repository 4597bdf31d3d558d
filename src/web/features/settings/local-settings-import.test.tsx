import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { legacyStorageKey, readLegacySettings, useImportLocalSettings } from './local-settings-import.ts';
import { RecordingTab } from './components/recording-tab.tsx';
import { SignedIn } from '#tests/support/web/test-auth.tsx';
import { installSettingsServer } from '#tests/support/web/settings-server.ts';

vi.mock('#web/lib/toast.ts', () => ({ toast: Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn(), info: vi.fn() }) }));
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
  window.localStorage.clear();
});

const keep = (tab: 'notifications' | 'recording' | 'privacy' | 'billing', value: unknown) =>
  window.localStorage.setItem(legacyStorageKey(tab, 'user-1'), typeof value === 'string' ? value : JSON.stringify(value));
const kept = (tab: 'notifications' | 'recording' | 'privacy' | 'billing') => window.localStorage.getItem(legacyStorageKey(tab, 'user-1'));
const puts = () => server.requests.filter((r) => r.method === 'PUT').map((r) => [r.path, r.body]);

function Page() {
  useImportLocalSettings();
  return <RecordingTab />;
}

describe('settings this browser kept before they moved to the server', () => {
  it('are carried to the account on the first visit, only their valid fields, and then forgotten here', async () => {
    keep('recording', { quality: 'ultra', format: 'lossless', fillerWordRemoval: true, injected: '<b>' });
    keep('billing', { name: 'Ada Lovelace', company: 'Analytical Engines', zip: 12345 });
    keep('notifications', '{not json');
    window.localStorage.setItem(legacyStorageKey('privacy', 'someone-else'), JSON.stringify({ autoDelete: 'never' }));
    render(<Page />, { wrapper: SignedIn });

    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Audio Quality' }).textContent).toBe('Ultra'));
    expect(puts()).toEqual([
      ['/api/v1/settings/recording', { quality: 'ultra', fillerWordRemoval: true }],
      ['/api/v1/settings/billing', { name: 'Ada Lovelace', company: 'Analytical Engines' }],
    ]);
    expect(server.stored().recording).toMatchObject({ quality: 'ultra', format: 'mp3', fillerWordRemoval: true });
    await waitFor(() => expect(kept('recording')).toBeNull());
    expect(kept('billing')).toBeNull();
    expect(kept('notifications')).toBeNull();
    // Another account's entry on this browser is theirs to carry over.
    expect(window.localStorage.getItem(legacyStorageKey('privacy', 'someone-else'))).not.toBeNull();
  });

  it('never overwrite a tab the account already saved on the server (newer choices from another device)', async () => {
    server.seed({ recording: { quality: 'standard' } });
    keep('recording', { quality: 'ultra' });
    render(<Page />, { wrapper: SignedIn });
    await waitFor(() => expect(kept('recording')).toBeNull());
    expect(puts()).toEqual([]);
    expect(screen.getByRole('combobox', { name: 'Audio Quality' }).textContent).toBe('Standard');
  });

  it('stay in the browser when the server refuses them, for the next visit to try again', async () => {
    keep('privacy', { autoDelete: 'never' });
    server.failNext({ status: 503 }); // the settings load
    render(<Page />, { wrapper: SignedIn });
    await screen.findByRole('alert'); // the load failed: nothing was imported
    expect(puts()).toEqual([]);
    cleanup();

    server.failNext('offline', 'PUT');
    const fetchCalls = server.requests.length;
    render(<Page />, { wrapper: SignedIn });
    await waitFor(() => expect(server.requests.length).toBeGreaterThan(fetchCalls));
    await screen.findByRole('combobox', { name: 'Audio Quality' });
    await waitFor(() => expect(puts()).toEqual([['/api/v1/settings/privacy', { autoDelete: 'never' }]]));
    expect(kept('privacy')).not.toBeNull();
  });

  it('read field by field, with nothing to read when there is no entry', () => {
    expect(readLegacySettings('privacy', 'user-1')).toBeUndefined();
    keep('privacy', { autoDelete: '1year', errorReporting: 'yes', aiImprovement: true });
    expect(readLegacySettings('privacy', 'user-1')).toEqual({ autoDelete: '1year', aiImprovement: true });
    for (const raw of ['[1,2]', '"high"', 'null', '42']) {
      keep('privacy', raw);
      expect(readLegacySettings('privacy', 'user-1'), raw).toEqual({});
    }
  });
});
