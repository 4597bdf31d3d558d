import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StatusResponse } from '#shared/contracts/status.ts';
import { STATUS } from '#tests/support/web/status-response.ts';
import { SignedIn } from '#tests/support/web/test-auth.tsx';
import { BetterTranscriptsNotice, type BetterTranscriptsSubject } from './better-transcripts-notice.tsx';

vi.mock('#web/lib/supabase.ts', () => ({
  loadSupabase: async () => ({ auth: { getSession: async () => ({ data: { session: { access_token: 'token-1' } } }) } }),
}));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const COMMAND = 'npm run models -- fetch parakeet-tdt-110m-en';
const onBasicEngine: StatusResponse = { ...STATUS, transcription: { ...STATUS.transcription, betterTranscripts: COMMAND } };
const recording: BetterTranscriptsSubject = { hasAudio: true, isSample: false };

function show(status: StatusResponse, meeting: BetterTranscriptsSubject) {
  const fetch = vi.fn(async () => new Response(JSON.stringify(status), { status: 200, headers: { 'content-type': 'application/json' } }));
  vi.stubGlobal('fetch', fetch);
  render(
    <>
      <BetterTranscriptsNotice meeting={meeting} />
      <p>page</p>
    </>,
    { wrapper: SignedIn },
  );
  return fetch;
}

describe("a recording's page on a server with the basic engine", () => {
  it('says which command gets better transcripts, who can run it, and links to Status', async () => {
    show(onBasicEngine, recording);
    const note = await screen.findByRole('note', { name: 'Better transcripts' });
    expect(note.textContent).toBe(
      `This server transcribes with its basic offline engine. For better transcripts, whoever runs it can install the recommended speech model with ${COMMAND} (see Status).`,
    );
    expect(screen.getByRole('link', { name: 'Status' }).getAttribute('href')).toBe('/status');
  });

  it('says nothing once a better engine is in use', async () => {
    const fetch = show(STATUS, recording);
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
    await screen.findByText('page');
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('asks nothing and says nothing for an imported transcript or a sample', async () => {
    for (const meeting of [
      { hasAudio: false, isSample: false },
      { hasAudio: true, isSample: true },
    ]) {
      const fetch = show(onBasicEngine, meeting);
      await screen.findByText('page');
      expect(screen.queryByRole('note')).toBeNull();
      expect(fetch).not.toHaveBeenCalled();
      cleanup();
    }
  });
});
