import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MyVoiceResponse, VoiceProfile } from '#shared/contracts/voice-profiles.ts';
import { SignedIn } from '#tests/support/web/test-auth.tsx';
import { VoiceProfileCard } from './voice-profile-card.tsx';

vi.mock('#web/lib/supabase.ts', () => ({
  loadSupabase: async () => ({ auth: { getSession: async () => ({ data: { session: { access_token: 'token-1' } } }) } }),
}));

const TEAM = { id: '0b6f3c57-58e4-4d41-9b8a-3f0e6d2c7a11', name: 'Voices' };
const MEETING = '5c1f0e0e-8d2b-4a55-9d3c-3d2f4f1a9b01';
const REQUEST = '7a0c9a1e-2b8e-4f6f-8b55-0f4d2c1e9a33';
const OWNER = '9e4b7c21-5a3d-4c8e-b1f2-6d7e8f9a0b1c';
const BUILT_IN = { kind: 'built-in', model: null, reason: 'no speaker embedding model installed' } as const;
const PROFILE: VoiceProfile = {
  createdAt: '2026-12-07T10:00:00.000Z',
  updatedAt: '2026-12-07T10:00:00.000Z',
  team: TEAM,
  sources: [{ meetingId: MEETING, meetingTitle: 'Reading, part one', via: 'enrolment', addedAt: '2026-12-07T10:00:00.000Z', canOpen: false, state: 'current' }],
  paths: ['built-in:2'],
};

const LEARNING = {
  id: REQUEST,
  meetingId: MEETING,
  meetingTitle: 'Reading, part one',
  status: 'pending',
  error: null,
  since: '2026-12-07T10:00:00.000Z',
} as const;

/** The voice-profile endpoints as the server answers them (the contract's shapes), and the teams list. */
function installVoiceServer(initial: MyVoiceResponse) {
  let state = initial;
  const requests: { method: string; path: string; body: unknown }[] = [];
  const respond = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const path = String(input);
      const method = init.method ?? 'GET';
      const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      requests.push({ method, path, body });
      if (path === '/api/v1/teams') return respond({ items: [{ ...TEAM, role: 'member', memberCount: 2, createdAt: '2026-12-01T00:00:00.000Z' }] });
      // An acceptance answers at once with the voice being learned; the next read finds it learned (the job done).
      if (method === 'GET' && state.learning.some((l) => l.status === 'pending')) state = { ...state, learning: [], profile: PROFILE };
      else if (method === 'POST' && path === `/api/v1/voice-profile/requests/${REQUEST}`)
        state = (body as { accept: boolean }).accept ? { ...state, requests: [], learning: [LEARNING] } : { ...state, requests: [] };
      if (method === 'DELETE' && path === '/api/v1/voice-profile') state = { ...state, profile: null };
      return respond(state);
    }),
  );
  return requests;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Settings › Privacy › Voice profile', () => {
  it('asks before keeping a teammate’s voice: Accept keeps it, with the meeting it came from', async () => {
    const requests = installVoiceServer({
      profile: null,
      requests: [
        { id: REQUEST, requestedBy: { id: OWNER, name: 'Olga Owner' }, meetingTitle: 'Reading, part one', team: TEAM, createdAt: '2026-12-07T09:00:00.000Z' },
      ],
      learning: [],
      path: BUILT_IN,
    });
    render(<VoiceProfileCard />, { wrapper: SignedIn });
    const request = await screen.findByRole('group', { name: 'Request from Olga Owner' });
    expect(request.textContent).toContain(
      'Olga Owner named a speaker in “Reading, part one” after you and asks to keep a voice profile of you, used in the meetings of Voices.',
    );
    expect(screen.getByText(/You have no voice profile/)).toBeTruthy();
    fireEvent.click(within(request).getByRole('button', { name: 'Accept' }));
    expect((await screen.findByRole('status')).textContent).toBe('Learning your voice from “Reading, part one”…');
    expect(screen.queryByText(/You have no voice profile/)).toBeNull();
    const sources = await screen.findByRole('list', { name: 'Meetings your voice profile came from' }, { timeout: 5_000 });
    expect(sources.textContent).toContain('Reading, part one');
    expect(screen.queryByRole('group', { name: 'Request from Olga Owner' })).toBeNull();
    expect(requests.find((r) => r.method === 'POST')).toEqual({ method: 'POST', path: `/api/v1/voice-profile/requests/${REQUEST}`, body: { accept: true } });
  });

  it('deletes the profile in one click, and says which embedding path is active', async () => {
    const requests = installVoiceServer({ profile: PROFILE, requests: [], learning: [], path: BUILT_IN });
    render(<VoiceProfileCard />, { wrapper: SignedIn });
    expect(await screen.findByText(/Voices are described by Parley’s built-in voice features/)).toBeTruthy();
    expect((screen.getByLabelText('Used in') as HTMLSelectElement).value).toBe(TEAM.id);
    fireEvent.click(screen.getByRole('button', { name: 'Delete voice profile' }));
    await screen.findByText(/You have no voice profile/);
    expect(requests.some((r) => r.method === 'DELETE' && r.path === '/api/v1/voice-profile')).toBe(true);
  });

  it('says why a voice could not be learned', async () => {
    const reason = 'Could not learn this voice: This speaker says too little in the recording to learn their voice (at least 3 seconds of speech).';
    installVoiceServer({ profile: null, requests: [], learning: [{ ...LEARNING, status: 'failed', error: reason }], path: BUILT_IN });
    render(<VoiceProfileCard />, { wrapper: SignedIn });
    expect((await screen.findByRole('alert')).textContent).toBe(`${reason} (from “Reading, part one”)`);
    expect(screen.getByText(/You have no voice profile/)).toBeTruthy();
  });

  it('says which voices are being learned again, and asks for a new sample where one cannot be', async () => {
    const old = { ...PROFILE.sources[0]!, addedAt: '2026-12-01T10:00:00.000Z' };
    const profile: VoiceProfile = {
      ...PROFILE,
      sources: [
        { ...old, meetingTitle: 'Reading, part one', state: 'relearning' },
        { ...old, meetingTitle: 'Deleted stand-up', state: 'needs a new sample' },
      ],
      paths: ['built-in'],
    };
    installVoiceServer({ profile, requests: [], learning: [], path: BUILT_IN });
    render(<VoiceProfileCard />, { wrapper: SignedIn });
    const sources = await screen.findByRole('list', { name: 'Meetings your voice profile came from' });
    const [relearning, gone] = within(sources).getAllByRole('listitem');
    expect(relearning!.textContent).toMatch(/^Reading, part one · .+ · being learned again \(voices are now described anew\)$/);
    expect(within(relearning!).queryByRole('alert')).toBeNull();
    expect(gone!.textContent).toContain('Deleted stand-up');
    expect(within(gone!).getByRole('alert').textContent).toBe(
      ' · no longer used: voices are now described anew, and this one could not be from its meeting. Choose “This speaker is me” on a newer meeting to give a new sample.',
    );
  });

  it('names the speaker embedding model when sherpa-onnx describes voices', async () => {
    installVoiceServer({ profile: null, requests: [], learning: [], path: { kind: 'sherpa-onnx', model: '3dspeaker-eres2net-base', reason: null } });
    render(<VoiceProfileCard />, { wrapper: SignedIn });
    await waitFor(() => expect(screen.getByText('Voices are described by the speaker embedding model 3dspeaker-eres2net-base (sherpa-onnx).')).toBeTruthy());
  });
});
