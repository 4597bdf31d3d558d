import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useQueryClient } from '@tanstack/react-query';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MeetingDetail } from '#shared/contracts/meetings.ts';
import { installMeetingServer } from '#tests/support/web/meeting-server.ts';
import { SignedIn } from '#tests/support/web/test-auth.tsx';
import { MeetingPage } from './meeting-page.tsx';

const toast = vi.hoisted(() => Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn(), info: vi.fn(), loading: vi.fn() }));
vi.mock('#web/lib/toast.ts', () => ({ toast }));
vi.mock('#web/lib/supabase.ts', () => ({
  loadSupabase: async () => ({ auth: { getSession: async () => ({ data: { session: { access_token: 'token-1' } } }) } }),
}));

const MEETING_ID = '6f1c2b8e-3d4a-4e5f-9a6b-7c8d9e0f1a2b';
const OWNER_ID = 'd0000000-0000-4000-8000-000000000001';
const TEAM_ID = 'e0000000-0000-4000-8000-000000000001';
const SPEAKER = 'a0000000-0000-4000-8000-000000000001';
const SEGMENT = 'b0000000-0000-4000-8000-000000000001';

function meeting(overrides: Partial<MeetingDetail>): MeetingDetail {
  return {
    id: MEETING_ID,
    title: 'Release planning',
    startedAt: '2026-03-02T10:00:00.000Z',
    durationSeconds: 60,
    status: 'ready',
    source: 'upload',
    participants: ['Ada'],
    summary: 'The release moves to Friday.',
    isSample: false,
    hasAudio: false,
    createdAt: '2026-03-02T10:00:00.000Z',
    processing: null,
    failureReason: null,
    options: { speakerDetection: true, emotionalAnalysis: false, actionItems: true, summary: true, noiseReduction: true, highQuality: false, autoShare: false },
    audioSources: null,
    speakers: [{ id: SPEAKER, label: 'Speaker 1', displayName: 'Ada' }],
    segments: [{ id: SEGMENT, speakerId: SPEAKER, startMs: 0, endMs: 9_000, text: 'The release moves to Friday.', confidence: 0.9 }],
    insights: [],
    notes: {
      status: 'ready',
      engine: 'local',
      failureReason: null,
      droppedUncited: 0,
      localFallbackParts: 0,
      progress: null,
      outOfDate: false,
      generatedAt: '2026-03-02T10:05:00.000Z',
    },
    ...overrides,
  };
}
const TEAMMATES = { access: 'team', teamId: TEAM_ID, owner: { id: OWNER_ID, name: 'Sam Sharer' } } as const;
const MINE = { access: 'owner', teamId: null, owner: { id: 'd0000000-0000-4000-8000-000000000002', name: 'Ada Lovelace' } } as const;

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

/** Reads every query again, as the realtime socket's team.changed event has the page do. */
function ReadAgain() {
  const client = useQueryClient();
  return (
    <button type="button" onClick={() => void client.invalidateQueries()}>
      Read again
    </button>
  );
}

async function openMeeting(detail: MeetingDetail) {
  const server = installMeetingServer(detail);
  render(
    <SignedIn initialEntries={[`/meetings/${detail.id}`]}>
      <ReadAgain />
      <Routes>
        <Route path="/meetings/:id" element={<MeetingPage ShareDialog={() => <p>link dialog</p>} />} />
      </Routes>
    </SignedIn>,
  );
  await screen.findByRole('heading', { level: 1, name: 'Release planning' });
  return server;
}

const menuItems = async (title: string) => {
  const trigger = screen.getByRole('button', { name: `Actions for ${title}` });
  await act(async () => {
    fireEvent.keyDown(trigger, { key: 'Enter' });
  });
  const items = (await screen.findByRole('menu')).querySelectorAll('[role="menuitem"]');
  return [...items].map((item) => item.textContent);
};

describe('a meeting shared with the reader’s team', () => {
  it('says who shared it and offers reading, playing and downloading only: no edit, share or delete controls', async () => {
    await openMeeting(meeting(TEAMMATES));
    expect(screen.getByText('Shared by Sam Sharer')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Rename meeting' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Share with team|Shared with/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Regenerate/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Rename Ada' })).toBeNull();
    expect(screen.getByRole('list', { name: 'Transcript' }).textContent).toContain('The release moves to Friday.');
    // Posting it to the reader's own Slack channel is reading it out, not changing it.
    expect(await menuItems('Release planning')).toEqual(['Download', 'Schedule follow-up', 'Share to Slack']);
  });

  it('the owner’s own page keeps every control, and says nothing of "Shared by"', async () => {
    await openMeeting(meeting(MINE));
    expect(screen.queryByText(/Shared by/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Rename meeting' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Share with team' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Regenerate/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Rename Ada' })).toBeTruthy();
    expect(await menuItems('Release planning')).toEqual(['Download', 'Schedule follow-up', 'Share to Slack', 'Share', 'Share with team', 'Delete']);
  });

  it('once it is no longer readable, the page says so instead of showing what it had', async () => {
    const server = await openMeeting(meeting(TEAMMATES));
    server.failNext({ status: 404, body: { error: { code: 'NOT_FOUND', message: 'Meeting not found' } } });
    fireEvent.click(screen.getByRole('button', { name: 'Read again' }));
    await screen.findByRole('heading', { level: 1, name: 'This meeting is no longer shared with you' });
    expect(screen.queryByText('The release moves to Friday.')).toBeNull();
  });
});

describe('Share with team, from the meeting page', () => {
  it('lists the owner’s teams and Private, says how it is shared now, and saves the choice', async () => {
    const server = await openMeeting(meeting(MINE));
    const teams = [
      { id: TEAM_ID, name: 'Product', role: 'owner', memberCount: 3, createdAt: '2026-03-01T00:00:00.000Z' },
      { id: 'e0000000-0000-4000-8000-000000000002', name: 'Design', role: 'member', memberCount: 1, createdAt: '2026-03-01T00:00:00.000Z' },
    ];
    const meetingFetch = vi.mocked(fetch);
    const calls: { method: string; path: string; body: unknown }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
        const path = String(input);
        const method = init.method ?? 'GET';
        if (path === '/api/v1/teams') return new Response(JSON.stringify({ items: teams }), { headers: { 'content-type': 'application/json' } });
        if (method === 'PATCH' && path === `/api/v1/meetings/${MEETING_ID}`) {
          const body = JSON.parse(String(init.body)) as { teamId: string | null };
          calls.push({ method, path, body });
          return new Response(JSON.stringify({ ...server.meeting(), teamId: body.teamId }), { headers: { 'content-type': 'application/json' } });
        }
        return meetingFetch(input, init);
      }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Share with team' }));
    const dialog = await screen.findByRole('dialog', { name: 'Share with team' });
    expect(within(dialog).getByRole('status').textContent).toBe('Private: only you can see this meeting.');
    await within(dialog).findByRole('radio', { name: /Product/ });
    expect(
      within(dialog)
        .getAllByRole('radio')
        .map((radio) => radio.closest('label')?.textContent),
    ).toEqual(['PrivateOnly you', 'Design1 member', 'Product3 members']);
    expect((within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(dialog).getByRole('radio', { name: /Product/ }));
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    });
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Shared with Product', expect.anything()));
    expect(calls).toEqual([{ method: 'PATCH', path: `/api/v1/meetings/${MEETING_ID}`, body: { teamId: TEAM_ID } }]);
    await screen.findByRole('button', { name: 'Shared with Product' });
  });
});
