import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StatusResponse } from '#shared/contracts/status.ts';
import { SignedIn } from '#tests/support/web/test-auth.tsx';
import { StatusPage } from './status-page.tsx';

vi.mock('#web/lib/supabase.ts', () => ({
  loadSupabase: async () => ({ auth: { getSession: async () => ({ data: { session: { access_token: 'token-1' } } }) } }),
}));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const STATUS: StatusResponse = {
  transcription: {
    setting: 'auto',
    inUse: 'pocketsphinx',
    engines: [{ name: 'pocketsphinx', detail: 'offline', available: true, reason: null, inUse: true }],
    models: [],
    voiceActivityDetection: { available: true, source: 'bundled', reason: null },
    queue: { queued: 0, running: 0 },
  },
  notes: {
    setting: 'auto',
    inUse: 'local',
    engines: [{ name: 'local', detail: 'offline', available: true, reason: null, inUse: true }],
    queue: { queued: 0, running: 0 },
  },
  database: { ok: true, reason: null, checkedAt: '2026-11-24T09:00:00.000Z' },
};

function serve(status: StatusResponse) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(status), { status: 200, headers: { 'content-type': 'application/json' } })),
  );
  render(<StatusPage />, { wrapper: SignedIn });
}

describe('the /status page and the database check', () => {
  it('says nothing of the database while it is sound', async () => {
    serve(STATUS);
    await screen.findByTestId('engine-in-use');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('puts a damaged database first, with the reason and what to do', async () => {
    const reason = 'Database integrity check failed: *** in database main *** Page 70: btreeInitPage() returns error code 11';
    serve({ ...STATUS, database: { ok: false, reason, checkedAt: '2026-11-24T09:00:00.000Z' } });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(`The database is damaged${reason} Restore it from a backup, then restart the server.`);
  });
});
