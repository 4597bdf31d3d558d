import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Team, TeamRole } from '#shared/contracts/teams.ts';
import { SignedIn } from '#tests/support/web/test-auth.tsx';
import { MemberActions, TeamMenu } from './team-actions.tsx';
import type { TeamMember } from './team-data.ts';

const toast = vi.hoisted(() => Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock('#web/lib/toast.ts', () => ({ toast }));
vi.mock('#web/lib/supabase.ts', () => ({
  loadSupabase: async () => ({ auth: { getSession: async () => ({ data: { session: { access_token: 'token-1' } } }) } }),
}));

const team = (role: TeamRole): Team => ({
  id: '0b7e4c5a-1d2e-4f3a-8b9c-000000000001',
  name: 'Engines',
  role,
  memberCount: 3,
  createdAt: '2026-11-20T10:00:00.000Z',
});
const member = (overrides: Partial<TeamMember> & { name: string; teamRole: TeamRole }): TeamMember => ({
  id: '0b7e4c5a-1d2e-4f3a-8b9c-0000000000b1',
  role: overrides.teamRole,
  email: 'someone@example.com',
  availability: 'Available',
  status: 'active',
  meetingsRecorded: 0,
  meetingsAttended: 0,
  lastActive: 'now',
  isSample: false,
  isYou: false,
  ...overrides,
});

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

/** Opens a menu from its button and picks `item`: the confirmation dialog it asks with. */
async function choose(menuButton: string, item: string) {
  await act(async () => {
    fireEvent.keyDown(screen.getByRole('button', { name: menuButton }), { key: 'Enter' });
  });
  fireEvent.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: item }));
  return screen.findByRole('dialog');
}

describe('leaving or removing someone says what happens to their meetings', () => {
  it('removing an admin: they lose the team, their shared meetings stop being shared, their invitations stop working', async () => {
    render(<MemberActions team={team('owner')} member={member({ name: 'Grace Hopper', teamRole: 'admin' })} onLeft={() => {}} />, { wrapper: SignedIn });
    const dialog = await choose('Manage Grace Hopper', 'Remove from team');
    expect(within(dialog).getByRole('heading').textContent).toBe('Remove Grace Hopper?');
    expect(dialog.textContent).toContain(
      'Grace Hopper loses access to Engines and the meetings shared with it at once. The meetings Grace Hopper shared with the team stop being shared: they become private to Grace Hopper again. The invitations Grace Hopper sent stop working.',
    );
  });

  it('leaving from your own card, as a member: your shared meetings stop being shared', async () => {
    render(<MemberActions team={team('member')} member={member({ name: 'Ada Lovelace', teamRole: 'member', isYou: true })} onLeft={() => {}} />, {
      wrapper: SignedIn,
    });
    const dialog = await choose('Manage Ada Lovelace', 'Leave team');
    expect(dialog.textContent).toContain(
      'You will no longer see the meetings shared with this team, and the meetings you shared with it stop being shared: they become private to you again. To come back, you need a new invitation.',
    );
  });

  it('leaving from the team’s settings, as an admin: your invitations stop working too', async () => {
    render(<TeamMenu team={team('admin')} youId="0b7e4c5a-1d2e-4f3a-8b9c-0000000000a1" onGone={() => {}} />, { wrapper: SignedIn });
    const dialog = await choose('Team settings', 'Leave team');
    expect(dialog.textContent).toContain(
      'You will no longer see the meetings shared with this team, and the meetings you shared with it stop being shared: they become private to you again. The invitations you sent to it stop working. To come back, you need a new invitation.',
    );
  });
});
