import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CreatedInvitation, Invitation, Team } from '#shared/contracts/teams.ts';
import { SignedIn } from '#tests/support/web/test-auth.tsx';
import { InviteMemberDialog } from './invite-member-dialog.tsx';

const toast = vi.hoisted(() => Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock('#web/lib/toast.ts', () => ({ toast }));
vi.mock('#web/lib/supabase.ts', () => ({
  loadSupabase: async () => ({ auth: { getSession: async () => ({ data: { session: { access_token: 'token-1' } } }) } }),
}));

const TEAM: Team = { id: '0b7e4c5a-1d2e-4f3a-8b9c-000000000001', name: 'Engines', role: 'owner', memberCount: 1, createdAt: '2026-11-20T10:00:00.000Z' };
const LINK_ID = '0b7e4c5a-1d2e-4f3a-8b9c-0000000000c1';
const inviter = { id: '0b7e4c5a-1d2e-4f3a-8b9c-0000000000a1', name: 'Ada Lovelace' };

/** The invitation endpoints behind `fetch`, as the server answers them (teams.int.test.ts covers the server itself). */
function installInvitationServer(initial: Invitation[] = []) {
  let open: Invitation[] = initial;
  const requests: { method: string; path: string; body: unknown }[] = [];
  const respond = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const path = String(input);
      const method = init.method ?? 'GET';
      const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      requests.push({ method, path, body });
      const base = `/api/v1/teams/${TEAM.id}/invitations`;
      if (method === 'GET' && path === base) return respond(200, { items: open });
      if (method === 'POST' && path === base) {
        const { email, role } = body as { email?: string; role: 'admin' | 'member' };
        if (email === 'grace@example.com') return respond(409, { error: { code: 'CONFLICT', message: 'grace@example.com is already a member of this team.' } });
        const invitation: Invitation = {
          id: LINK_ID,
          email: email ?? null,
          emailStatus: email ? 'sending' : null,
          emailError: null,
          role,
          invitedBy: inviter,
          createdAt: '2026-11-24T10:00:00.000Z',
          expiresAt: '2026-12-01T10:00:00.000Z',
        };
        open = [...open, invitation];
        const created: CreatedInvitation = { ...invitation, token: 'tok', url: 'http://parley.test/invite/tok', emailed: email !== undefined };
        return respond(201, created);
      }
      if (method === 'DELETE' && path === `${base}/${LINK_ID}`) {
        open = open.filter((i) => i.id !== LINK_ID);
        return respond(200, { ok: true });
      }
      return respond(404, { error: { code: 'NOT_FOUND', message: `No route for ${method} ${path}` } });
    }),
  );
  return { requests };
}

let server: ReturnType<typeof installInvitationServer>;
beforeEach(() => {
  server = installInvitationServer();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

const openDialog = () => {
  render(<InviteMemberDialog team={TEAM} open onOpenChange={() => {}} />, { wrapper: SignedIn });
  return within(screen.getByRole('dialog', { name: 'Invite a team member' }));
};

describe('Invite Member', () => {
  it('says plainly who can accept: an emailed invitation only its address’s account, a link anyone who holds it', async () => {
    const dialog = openDialog();
    const email = dialog.getByLabelText('Email address');
    const hint = document.getElementById(email.getAttribute('aria-describedby') ?? '');
    expect(hint?.textContent).toBe('Only an account with this email address can accept the invitation.');
    expect(
      dialog.getByText('Anyone with the link can join once, with the role you choose, whatever their email address: share it only with the person you mean.'),
    ).toBeTruthy();
  });

  it('sends an invitation by email with its role, and shows the server’s refusal in the dialog and as a toast', async () => {
    const dialog = openDialog();
    await dialog.findByText('No open invitations.');
    fireEvent.change(dialog.getByLabelText('Email address'), { target: { value: 'grace@example.com' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Send Invitation' }));
    expect((await dialog.findByRole('alert')).textContent).toBe('grace@example.com is already a member of this team.');
    expect(toast.error).toHaveBeenCalledWith('grace@example.com is already a member of this team.');

    fireEvent.change(dialog.getByLabelText('Email address'), { target: { value: 'alan@example.com' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Send Invitation' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Invitation sent to alan@example.com'));
    expect(server.requests.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([
      { email: 'grace@example.com', role: 'member' },
      { email: 'alan@example.com', role: 'member' },
    ]);
    expect(dialog.queryByRole('alert')).toBeNull();
    await within(dialog.getByRole('list', { name: 'Open invitations' })).findByText(/alan@example\.com · Member/);
  });

  it('makes a copyable invite link, lists it, and revokes it', async () => {
    const dialog = openDialog();
    fireEvent.click(dialog.getByRole('button', { name: 'Create invite link' }));
    expect(((await dialog.findByLabelText('Invite link')) as HTMLInputElement).value).toBe('http://parley.test/invite/tok');
    expect(server.requests.find((r) => r.method === 'POST')?.body).toEqual({ role: 'member' });
    const revoke = await dialog.findByRole('button', { name: 'Revoke the invitation link' });
    fireEvent.click(revoke);
    await dialog.findByText('No open invitations.');
    expect(toast.success).toHaveBeenCalledWith('Invitation revoked');
  });

  it('says on an invitation that its email could not be sent, and what to do', async () => {
    const failed = 'The invitation email could not be sent. Check the server’s email settings, or invite with a link instead.';
    server = installInvitationServer([
      {
        id: LINK_ID,
        email: 'lost@example.com',
        emailStatus: 'failed',
        emailError: failed,
        role: 'member',
        invitedBy: inviter,
        createdAt: '2026-11-24T10:00:00.000Z',
        expiresAt: '2026-12-01T10:00:00.000Z',
      },
    ]);
    const dialog = openDialog();
    const list = within(await dialog.findByRole('list', { name: 'Open invitations' }));
    expect((await list.findByRole('status')).textContent).toBe(failed);
  });
});
