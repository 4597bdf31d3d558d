import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MeetingDetail } from '#shared/contracts/meetings.ts';
import type { VoiceSuggestion, VoiceSuggestionLearning } from '#shared/contracts/voice-profiles.ts';
import type { ReactNode } from 'react';
import { SignedIn, testUser } from '#tests/support/web/test-auth.tsx';
import { MeetingVoicesCard } from './meeting-voices-card.tsx';

vi.mock('#web/lib/supabase.ts', () => ({
  loadSupabase: async () => ({ auth: { getSession: async () => ({ data: { session: { access_token: 'token-1' } } }) } }),
}));

const MEETING = '5c1f0e0e-8d2b-4a55-9d3c-3d2f4f1a9b01';
const SPEAKER_1 = '1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d';
const SPEAKER_2 = '2b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d';
const TEAM = '0b6f3c57-58e4-4d41-9b8a-3f0e6d2c7a11';
const TOMASZ = '9e4b7c21-5a3d-4c8e-b1f2-6d7e8f9a0b1c';
const SUGGESTION = '7a0c9a1e-2b8e-4f6f-8b55-0f4d2c1e9a33';
const ME = '3c4d5e6f-7081-4a92-8b3c-4d5e6f708192';
const AsMe = ({ children }: { children: ReactNode }) => <SignedIn user={{ ...testUser(), id: ME }}>{children}</SignedIn>;
const meeting: Pick<MeetingDetail, 'id' | 'status' | 'hasAudio' | 'speakers' | 'access'> = {
  id: MEETING,
  status: 'ready',
  hasAudio: true,
  speakers: [
    { id: SPEAKER_1, label: 'Speaker 1', displayName: null },
    { id: SPEAKER_2, label: 'Speaker 2', displayName: null },
  ],
};

function installServer(suggestions: VoiceSuggestion[]) {
  let open = suggestions;
  let learning: VoiceSuggestionLearning[] = [];
  let readsAfterYes = 0;
  const requests: { method: string; path: string; body: unknown }[] = [];
  const respond = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const path = String(input);
      const method = init.method ?? 'GET';
      const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      requests.push({ method, path, body });
      if (path === '/api/v1/teams')
        return respond({ items: [{ id: TEAM, name: 'Voices', role: 'owner', memberCount: 2, createdAt: '2026-12-01T00:00:00.000Z' }] });
      if (path === `/api/v1/teams/${TEAM}/members`) {
        const member = (userId: string, name: string) => ({
          userId,
          name,
          email: `${name.split(' ')[0]!.toLowerCase()}@example.com`,
          avatarUrl: null,
          role: 'member',
          availability: 'away',
          status: 'Away',
          lastActiveAt: null,
          joinedAt: '2026-12-01T00:00:00.000Z',
          meetingsRecorded: 0,
          meetingsAttended: 0,
        });
        return respond({ items: [member(ME, 'Ada Lovelace'), member(TOMASZ, 'Tomasz Nowak')] });
      }
      if (method === 'POST' && path === `/api/v1/meetings/${MEETING}/voice-suggestions/${SUGGESTION}`) {
        const accepted = open.find((s) => s.id === SUGGESTION);
        open = [];
        if ((body as { accept: boolean }).accept && accepted) learning = [{ ...accepted, status: 'pending', error: null }];
        return respond({ suggestions: open, learning });
      }
      if (path === `/api/v1/meetings/${MEETING}/voice-suggestions`) {
        // Read again after a yes (the meeting changed): still learning; the next read, the job could not read the recording.
        if (learning.length > 0 && readsAfterYes++ > 0)
          learning = learning.map((l) => ({ ...l, status: 'failed', error: 'Could not learn this voice: The recording could not be read.' }));
        return respond({ suggestions: open, learning });
      }
      if (path === '/api/v1/voice-profile')
        return respond({ profile: null, requests: [], learning: [], path: { kind: 'built-in', model: null, reason: null } });
      if (method === 'POST' && path.endsWith('/voice'))
        return respond({ outcome: (body as { who: string }).who === 'me' ? 'learning' : 'asked', displayName: 'Tomasz Nowak' });
      return new Response(JSON.stringify({ error: { code: 'NOT_FOUND', message: `No route for ${method} ${path}` } }), { status: 404 });
    }),
  );
  return requests;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("a meeting's Voices card", () => {
  it('asks "is this Tomasz Nowak?" of a speaker, answered in one click', async () => {
    const requests = installServer([{ id: SUGGESTION, speakerId: SPEAKER_2, person: { id: TOMASZ, name: 'Tomasz Nowak' } }]);
    render(<MeetingVoicesCard meeting={meeting} />, { wrapper: AsMe });
    const suggestion = await screen.findByRole('group', { name: 'Suggestion for Speaker 2' });
    expect(suggestion.textContent).toContain('Speaker 2: is this Tomasz Nowak?');
    fireEvent.click(within(suggestion).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Suggestion for Speaker 2' })).toBeNull());
    expect(requests.find((r) => r.method === 'POST')).toEqual({
      method: 'POST',
      path: `/api/v1/meetings/${MEETING}/voice-suggestions/${SUGGESTION}`,
      body: { accept: false },
    });
  });

  it('says, after a yes, that the voice is being learned, and why it could not be', async () => {
    installServer([{ id: SUGGESTION, speakerId: SPEAKER_2, person: { id: TOMASZ, name: 'Tomasz Nowak' } }]);
    render(<MeetingVoicesCard meeting={meeting} />, { wrapper: AsMe });
    const suggestion = await screen.findByRole('group', { name: 'Suggestion for Speaker 2' });
    fireEvent.click(within(suggestion).getByRole('button', { name: 'Yes, it is' }));
    expect((await screen.findByRole('status')).textContent).toBe('Learning Tomasz Nowak’s voice from this meeting…');
    expect((await screen.findByRole('alert', {}, { timeout: 5_000 })).textContent).toBe(
      'Could not learn this voice: The recording could not be read. (Tomasz Nowak)',
    );
  });

  it('offers a member of the team the meeting is shared with only "This speaker is me"', async () => {
    const requests = installServer([]);
    render(<MeetingVoicesCard meeting={{ ...meeting, access: 'team' }} />, { wrapper: AsMe });
    const who = screen.getByLabelText('Is') as HTMLSelectElement;
    expect([...who.options].map((o) => o.textContent)).toEqual(['Me']);
    fireEvent.click(screen.getByRole('button', { name: 'This speaker is me' }));
    await waitFor(() => expect(requests.filter((r) => r.path.endsWith('/voice'))).toHaveLength(1));
    // Neither the owner's questions nor the teams are asked for.
    expect(requests.some((r) => r.path.includes('voice-suggestions') || r.path.startsWith('/api/v1/teams'))).toBe(false);
  });

  it('names a speaker after the person or a teammate (never the person themself as a teammate)', async () => {
    const requests = installServer([]);
    render(<MeetingVoicesCard meeting={meeting} />, { wrapper: AsMe });
    const who = screen.getByLabelText('Is') as HTMLSelectElement;
    await waitFor(() => expect([...who.options].map((o) => o.textContent)).toEqual(['Me', 'Tomasz Nowak (asked first)']));
    fireEvent.click(screen.getByRole('button', { name: 'This speaker is me' }));
    await waitFor(() => expect(requests.filter((r) => r.path.endsWith('/voice'))).toHaveLength(1));
    expect(requests.find((r) => r.path.endsWith('/voice'))).toEqual({
      method: 'POST',
      path: `/api/v1/meetings/${MEETING}/speakers/${SPEAKER_1}/voice`,
      body: { who: 'me' },
    });
    fireEvent.change(screen.getByLabelText('Speaker'), { target: { value: SPEAKER_2 } });
    fireEvent.change(who, { target: { value: TOMASZ } });
    fireEvent.click(screen.getByRole('button', { name: 'Name and ask them' }));
    await waitFor(() => expect(requests.filter((r) => r.path.endsWith('/voice'))).toHaveLength(2));
    expect(requests.filter((r) => r.path.endsWith('/voice')).at(-1)).toEqual({
      method: 'POST',
      path: `/api/v1/meetings/${MEETING}/speakers/${SPEAKER_2}/voice`,
      body: { who: 'teammate', userId: TOMASZ },
    });
  });

  it('is not there for a meeting without a recording', () => {
    installServer([]);
    const { container } = render(<MeetingVoicesCard meeting={{ ...meeting, hasAudio: false }} />, { wrapper: AsMe });
    expect(container.textContent).toBe('');
  });
});
