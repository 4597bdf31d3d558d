import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Team, TeamMember } from '#shared/contracts/teams.ts';
import type { ReactNode } from 'react';
import { SignedIn, testUser } from '#tests/support/web/test-auth.tsx';
import { availabilityVariant } from '#web/features/team/team-data.ts';
import { Component as TeamRoute } from './team.tsx';

const stats = vi.hoisted(() => ({ data: undefined as { meetings: number } | undefined }));
vi.mock('#web/features/meetings/api.ts', () => ({ useMeetingStats: () => stats }));
vi.mock('#web/lib/supabase.ts', () => ({
  loadSupabase: async () => ({ auth: { getSession: async () => ({ data: { session: { access_token: 'token-1' } } }) } }),
}));

const team = (id: string, name: string, role: Team['role'] = 'owner'): Team => ({ id, name, role, memberCount: 2, createdAt: '2026-11-20T10:00:00.000Z' });
const TEAM_A = team('0b7e4c5a-1d2e-4f3a-8b9c-000000000001', 'Analytical Engines');
const TEAM_B = team('0b7e4c5a-1d2e-4f3a-8b9c-000000000002', 'Difference Engines', 'member');

const member = (overrides: Partial<TeamMember> & Pick<TeamMember, 'userId' | 'name'>): TeamMember => ({
  email: `${overrides.name.split(' ')[0]!.toLowerCase()}@example.com`,
  avatarUrl: null,
  role: 'member',
  availability: 'away',
  status: 'Away',
  lastActiveAt: null,
  joinedAt: '2026-11-20T10:00:00.000Z',
  meetingsRecorded: 0,
  meetingsAttended: 0,
  ...overrides,
});

/** The teams endpoints behind `fetch`, answering with the contract's shapes (the real server: teams.int.test.ts and the browser tests). */
function installTeamsServer(teams: Team[], membersOf: Record<string, TeamMember[]>) {
  const requests: string[] = [];
  const respond = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const path = String(input);
      requests.push(`${init.method ?? 'GET'} ${path}`);
      if (path === '/api/v1/teams') return respond(200, { items: teams });
      const members = /^\/api\/v1\/teams\/([^/]+)\/members$/.exec(path);
      if (members) return respond(200, { items: membersOf[members[1]!] ?? [] });
      if (/^\/api\/v1\/teams\/[^/]+\/activity/.test(path)) return respond(200, { items: [] });
      const channel = /^\/api\/v1\/integrations\/(slack|teams)(\?teamId=(.+))?$/.exec(path);
      if (channel) {
        const body = init.method === 'PUT' ? (JSON.parse(String(init.body)) as { teamId: string }) : undefined;
        const connected = body !== undefined;
        return respond(200, {
          teamId: body?.teamId ?? channel[3] ?? null,
          connected,
          method: connected ? 'webhook' : null,
          destination: connected ? 'hooks.slack.com/…' : null,
          connectedBy: connected ? 'Ada' : null,
          connectedAt: connected ? '2026-12-07T00:00:00.000Z' : null,
          notesReady: true,
          shareLinks: false,
          lastPostAt: null,
          lastError: null,
          lastErrorAt: null,
        });
      }
      return respond(404, { error: { code: 'NOT_FOUND', message: `No route for ${path}` } });
    }),
  );
  return { requests };
}

/** Ada, with an id the members' contract accepts (a uuid), so her own card reads as "You". */
const ADA_ID = '0b7e4c5a-1d2e-4f3a-8b9c-0000000000a1';
const AsAda = ({ children }: { children: ReactNode }) => <SignedIn user={{ ...testUser(), id: ADA_ID }}>{children}</SignedIn>;

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  stats.data = undefined;
});

const memberCards = async () => within(await screen.findByRole('list', { name: 'Team members' })).getAllByRole('listitem');

describe('/team', () => {
  it('maps status to the spec badge styles', () => {
    expect(availabilityVariant('active')).toBe('default');
    expect(availabilityVariant('busy')).toBe('destructive');
    expect(availabilityVariant('away')).toBe('outline');
  });

  it('in no team yet: you first, as Owner and Available, with your own meeting count; everyone else is a Sample', async () => {
    installTeamsServer([], {});
    stats.data = { meetings: 7 };
    render(<TeamRoute />, { wrapper: SignedIn });
    const members = await memberCards();
    expect(members).toHaveLength(6);
    const [you, ...others] = members;
    const mine = within(you!);
    mine.getByRole('heading', { name: 'Ada Lovelace' });
    mine.getByText('Owner');
    mine.getByText('ada@example.com');
    expect(mine.getAllByText('7')).toHaveLength(2); // recorded and attended
    expect(mine.queryByText('Sample')).toBeNull();
    expect(mine.getByText('Available').getAttribute('data-variant')).toBe('default');
    for (const other of others) within(other).getByText('Sample');
    screen.getByText(/Invite Member creates your team/);
  });

  it('in no team yet: Invite Member asks for the first team’s name', async () => {
    installTeamsServer([], {});
    render(<TeamRoute />, { wrapper: SignedIn });
    await memberCards();
    fireEvent.click(screen.getByRole('button', { name: 'Invite Member' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Create your team' }));
    expect(dialog.getByRole('button', { name: 'Create team' }).hasAttribute('disabled')).toBe(true);
    fireEvent.change(dialog.getByLabelText('Team name'), { target: { value: 'Engines' } });
    expect(dialog.getByRole('button', { name: 'Create team' }).hasAttribute('disabled')).toBe(false);
  });

  it('on a team: its real members, you first, with their role, availability badge, counts and no Sample mark', async () => {
    installTeamsServer([TEAM_A], {
      [TEAM_A.id]: [
        member({ userId: '0b7e4c5a-1d2e-4f3a-8b9c-0000000000b1', name: 'Grace Hopper', availability: 'busy', status: 'In a meeting', meetingsRecorded: 3 }),
        member({ userId: ADA_ID, name: 'Ada Lovelace', role: 'owner', availability: 'active', status: 'Available', lastActiveAt: new Date().toISOString() }),
      ],
    });
    render(<TeamRoute />, { wrapper: AsAda });
    await waitFor(async () => expect(await memberCards()).toHaveLength(2));
    const [you, grace] = (await memberCards()).map((card) => within(card));
    you!.getByRole('heading', { name: 'Ada Lovelace' });
    you!.getByText('You');
    you!.getByText('Owner');
    expect(you!.getByText('Available').getAttribute('data-variant')).toBe('default');
    you!.getByText('Last active: Now');
    grace!.getByText('Member');
    expect(grace!.getByText('In a meeting').getAttribute('data-variant')).toBe('destructive');
    grace!.getByText('3');
    grace!.getByText('Last active: Never');
    expect(screen.queryByText('Sample')).toBeNull();
    screen.getByText('Analytical Engines');
    // The owner manages the others, not themselves (they transfer ownership first).
    grace!.getByRole('button', { name: 'Manage Grace Hopper' });
    expect(you!.queryByRole('button', { name: 'Manage Ada Lovelace' })).toBeNull();
  });

  it('in several teams: opens on the one picked last in this browser', async () => {
    localStorage.setItem(`parley.team.${ADA_ID}`, TEAM_B.id);
    const server = installTeamsServer([TEAM_A, TEAM_B], {
      [TEAM_A.id]: [member({ userId: '0b7e4c5a-1d2e-4f3a-8b9c-0000000000b1', name: 'Grace Hopper' })],
      [TEAM_B.id]: [member({ userId: '0b7e4c5a-1d2e-4f3a-8b9c-0000000000b2', name: 'Charles Babbage', role: 'owner' })],
    });
    render(<TeamRoute />, { wrapper: AsAda });
    await screen.findByRole('heading', { name: 'Charles Babbage' });
    expect(screen.getByRole('combobox', { name: 'Team' }).textContent).toContain('Difference Engines');
    expect(server.requests).not.toContain(`GET /api/v1/teams/${TEAM_A.id}/members`);
    // A member cannot invite: the button says who can.
    expect(screen.getByRole('button', { name: 'Invite Member' }).getAttribute('title')).toBe('Only the team’s owner and admins can invite members');
  });

  it('Channels: the team’s owner connects a Slack webhook for the team', async () => {
    const server = installTeamsServer([TEAM_A], { [TEAM_A.id]: [member({ userId: ADA_ID, name: 'Ada Lovelace', role: 'owner' })] });
    render(<TeamRoute />, { wrapper: AsAda });
    const tab = await screen.findByRole('tab', { name: 'Channels' });
    fireEvent.mouseDown(tab);
    fireEvent.click(tab);
    const field = await screen.findByLabelText('Slack webhook URL for Analytical Engines');
    fireEvent.change(field, { target: { value: 'https://hooks.slack.com/services/T1/B1/x' } });
    fireEvent.submit(field.closest('form')!);
    await screen.findByText(/go to hooks\.slack\.com\/… \(connected by Ada\)/);
    expect(server.requests).toContain('PUT /api/v1/integrations/slack');
    expect(server.requests).toContain(`GET /api/v1/integrations/teams?teamId=${TEAM_A.id}`);
  });
});
