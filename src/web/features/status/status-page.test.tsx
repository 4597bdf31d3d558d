import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StatusResponse } from '#shared/contracts/status.ts';
import { STATUS } from '#tests/support/web/status-response.ts';
import { SignedIn } from '#tests/support/web/test-auth.tsx';
import { StatusPage } from './status-page.tsx';

vi.mock('#web/lib/supabase.ts', () => ({
  loadSupabase: async () => ({ auth: { getSession: async () => ({ data: { session: { access_token: 'token-1' } } }) } }),
}));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

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

describe('the /status page and the recommended models', () => {
  it('on the basic engine, says which command gets better transcripts and why the download did not happen', async () => {
    const message =
      'The models host github.com could not be reached (ENOTFOUND): transcripts use the basic offline engine. For better transcripts run "npm run models -- fetch parakeet-tdt-110m-en" on the server, or restart it with network access.';
    serve({
      ...STATUS,
      transcription: {
        ...STATUS.transcription,
        autoModels: { state: 'offline', message, downloads: [] },
        betterTranscripts: 'npm run models -- fetch parakeet-tdt-110m-en',
      },
    });
    expect((await screen.findByTestId('better-transcripts')).textContent).toBe(
      'Transcripts use the basic offline engine. For better transcripts, run npm run models -- fetch parakeet-tdt-110m-en on the server.',
    );
    expect(screen.getByTestId('auto-models').textContent).toBe(`Recommended models at first start: offline${message}`);
  });

  it('shows the download under way, model by model', async () => {
    serve({
      ...STATUS,
      transcription: {
        ...STATUS.transcription,
        autoModels: {
          state: 'downloading',
          message: 'Fetching parakeet-tdt-110m-en (1 of 2).',
          downloads: [
            { name: 'parakeet-tdt-110m-en', kind: 'asr', receivedBytes: 54_000_000, totalBytes: 108_000_000, done: false },
            { name: 'pyannote-segmentation-3.0', kind: 'speaker-segmentation', receivedBytes: 0, totalBytes: 6_958_444, done: false },
          ],
        },
        betterTranscripts: 'npm run models -- fetch parakeet-tdt-110m-en',
      },
    });
    const bar = await screen.findByRole('progressbar', { name: 'parakeet-tdt-110m-en download' });
    expect(bar.getAttribute('value')).toBe('50');
    expect(screen.getByRole('list', { name: 'Model downloads' }).textContent).toContain('parakeet-tdt-110m-en — 54 MB of 108 MB');
    expect(screen.getByTestId('auto-models').textContent).toContain('Recommended models at first start: downloadingFetching parakeet-tdt-110m-en (1 of 2).');
  });

  it('says nothing of better transcripts once the engine is the good one', async () => {
    serve(STATUS);
    await screen.findByTestId('engine-in-use');
    expect(screen.queryByTestId('better-transcripts')).toBeNull();
    expect(screen.getByTestId('auto-models').textContent).toBe('Recommended models at first start: off (PARLEY_AUTO_MODELS=false)');
  });
});
