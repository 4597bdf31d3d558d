import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { z } from 'zod/mini';
import { MeetingRefSchema } from '#shared/contracts/insights.ts';
import { AudioLinkSchema, MeetingDetailSchema, MeetingListResponseSchema, type MeetingSummary } from '#shared/contracts/meetings.ts';
import { RealtimeServerMessageSchema, type MeetingProgressEvent, type RealtimeServerMessage } from '#shared/contracts/realtime.ts';
import {
  CreatedInvitationSchema,
  InvitationListSchema,
  InvitationPreviewSchema,
  TeamActivityListSchema,
  TeamListSchema,
  TeamMemberListSchema,
  TeamSchema,
  type CreatedInvitation,
  type Team,
  type TeamMember,
} from '#shared/contracts/teams.ts';
import { buildTestApp, findFreePort, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { outbox, type OutboxMessage } from '#tests/support/supabase-client.ts';
import { localBlobPath } from '#server/lib/blob-store.ts';
import { INVITATION_EMAIL_SUBJECT } from './invitation-email.ts';
import { INVITATION_EMAILS_PER_INVITER_PER_HOUR, MAX_OPEN_INVITATIONS, MAX_OWNED_TEAMS } from './teams.service.ts';

let t: TestApp;
beforeAll(async () => {
  // Invitation emails have auth's budgets (tested in 'invitation email budgets'): here many go to a few addresses in seconds.
  t = await buildTestApp({
    listen: true,
    env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false', AUTH_EMAIL_FREQUENCY: '0', AUTH_EMAIL_RATE_LIMIT_PER_HOUR: '10000' },
  });
});
afterAll(() => t.close());

type User = { token: string; id: string; email: string; name: string };
async function newUser(name: string): Promise<User> {
  const { token, userId, email } = await signUpUser(t.app, 'teams', { fullName: name });
  return { token, id: userId, email, name };
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const api = async (user: User | undefined, method: Method, url: string, payload?: object) => {
  const response = await t.app.inject({ method, url, headers: user ? { authorization: `Bearer ${user.token}` } : {}, ...(payload ? { payload } : {}) });
  const json = String(response.headers['content-type'] ?? '').startsWith('application/json');
  return { status: response.statusCode, body: (json ? response.json() : response.body) as unknown, raw: response.body, headers: response.headers };
};
const messageOf = (body: unknown) => (body as { error: { message: string } }).error.message;

async function createTeam(user: User, name: string): Promise<Team> {
  const created = await api(user, 'POST', '/api/v1/teams', { name });
  expect(created.status).toBe(201);
  return TeamSchema.parse(created.body);
}
async function invite(user: User, teamId: string, body: { email?: string; role?: 'admin' | 'member' }): Promise<CreatedInvitation> {
  const created = await api(user, 'POST', `/api/v1/teams/${teamId}/invitations`, body);
  expect(created.status, created.raw).toBe(201);
  return CreatedInvitationSchema.parse(created.body);
}
const accept = (user: User | undefined, token: string) => api(user, 'POST', `/api/v1/invitations/${token}/accept`);
async function join(owner: User, teamId: string, member: User, role: 'admin' | 'member' = 'member'): Promise<void> {
  const invitation = await invite(owner, teamId, { email: member.email, role });
  expect((await accept(member, invitation.token)).status).toBe(200);
}
async function membersOf(user: User, teamId: string): Promise<TeamMember[]> {
  const listed = await api(user, 'GET', `/api/v1/teams/${teamId}/members`);
  expect(listed.status).toBe(200);
  return TeamMemberListSchema.parse(listed.body).items;
}
async function meetingTitled(user: User, title: string): Promise<MeetingSummary> {
  const list = MeetingListResponseSchema.parse((await api(user, 'GET', `/api/v1/meetings?q=${encodeURIComponent(title)}`)).body);
  const meeting = list.items.find((m) => m.title === title && m.owner?.id === user.id);
  expect(meeting, title).toBeDefined();
  return meeting!;
}
const shareWith = (user: User, meetingId: string, teamId: string | null) => api(user, 'PATCH', `/api/v1/meetings/${meetingId}`, { teamId });
async function listIds(user: User, query = ''): Promise<string[]> {
  const list = await api(user, 'GET', `/api/v1/meetings?pageSize=100${query}`);
  return MeetingListResponseSchema.parse(list.body).items.map((m) => m.id);
}
async function withAudio(meetingId: string, bytes = 600): Promise<void> {
  const key = t.deps.blobs.newKey('webm');
  fs.mkdirSync(path.dirname(localBlobPath(t.config.dataDir, key)), { recursive: true });
  fs.writeFileSync(localBlobPath(t.config.dataDir, key), Buffer.alloc(bytes, 7));
  await t.deps.database.db.updateTable('meetings').set({ audio_key: key, audio_mime: 'audio/webm', audio_bytes: bytes }).where('id', '=', meetingId).execute();
}

/**
 * Starts a download over real HTTP and reads its first bytes only, the rest left waiting in the
 * connection (a long recording on a slow line); `rest()` then reads it to the end, or to where the
 * server cut it.
 */
async function startDownload(user: User, url: string) {
  const response = await fetch(`${t.baseUrl}${url}`, { headers: { authorization: `Bearer ${user.token}` } });
  expect(response.status).toBe(200);
  const size = Number(response.headers.get('content-length'));
  const reader = response.body!.getReader();
  let received = (await reader.read()).value?.length ?? 0;
  return {
    rest: async (): Promise<'whole' | 'cut'> => {
      try {
        for (let part = await reader.read(); !part.done; part = await reader.read()) received += part.value.length;
      } catch {
        return 'cut';
      }
      return received === size ? 'whole' : 'cut';
    },
  };
}

/** Every way to read a meeting, with the status each answers (the detail carries its transcript segments). */
async function readStatuses(user: User, meetingId: string) {
  return {
    detail: (await api(user, 'GET', `/api/v1/meetings/${meetingId}`)).status,
    export: (await api(user, 'GET', `/api/v1/meetings/${meetingId}/export?format=txt`)).status,
    audio: (await api(user, 'GET', `/api/v1/meetings/${meetingId}/audio`)).status,
    audioLink: (await api(user, 'POST', `/api/v1/meetings/${meetingId}/audio/link`)).status,
    listed: (await listIds(user)).includes(meetingId),
  };
}
const CAN_READ = { detail: 200, export: 200, audio: 200, audioLink: 200, listed: true };
const CANNOT_READ = { detail: 404, export: 404, audio: 404, audioLink: 404, listed: false };

/** Every way to change a meeting or share it further: the owner's alone. */
async function changeStatuses(user: User, meeting: { id: string }) {
  const detail = MeetingDetailSchema.parse((await api(user, 'GET', `/api/v1/meetings/${meeting.id}`)).body);
  const segment = detail.segments[0]!;
  const speaker = detail.speakers[0]!;
  const item = detail.insights[0]!;
  return [
    (await api(user, 'PATCH', `/api/v1/meetings/${meeting.id}`, { title: 'Taken over' })).status,
    (await api(user, 'PATCH', `/api/v1/meetings/${meeting.id}/segments/${segment.id}`, { text: 'Rewritten' })).status,
    (await api(user, 'PATCH', `/api/v1/meetings/${meeting.id}/speakers/${speaker.id}`, { displayName: 'Someone else' })).status,
    (await api(user, 'PATCH', `/api/v1/meetings/${meeting.id}/notes/items/${item.id}`, { status: 'dismissed' })).status,
    (await api(user, 'POST', `/api/v1/meetings/${meeting.id}/notes/regenerate`)).status,
    (await api(user, 'POST', `/api/v1/meetings/${meeting.id}/share`)).status,
    (await api(user, 'GET', `/api/v1/meetings/${meeting.id}/share`)).status,
    (await shareWith(user, meeting.id, null)).status,
    (await api(user, 'DELETE', `/api/v1/meetings/${meeting.id}`)).status,
  ];
}

describe('teams and invitations', () => {
  it('creates teams a person owns and lists them with their role; a person belongs to several', async () => {
    const ada = await newUser('Ada Lovelace');
    const first = await createTeam(ada, 'Design');
    expect(first).toMatchObject({ name: 'Design', role: 'owner', memberCount: 1 });
    const other = await newUser('Grace Hopper');
    const second = await createTeam(other, 'Compilers');
    await join(other, second.id, ada, 'admin');
    const mine = TeamListSchema.parse((await api(ada, 'GET', '/api/v1/teams')).body).items;
    expect(mine.map((team) => [team.name, team.role, team.memberCount])).toEqual([
      ['Design', 'owner', 1],
      ['Compilers', 'admin', 2],
    ]);
    expect((await api(ada, 'POST', '/api/v1/teams', { name: '   ' })).status).toBe(400);
    expect((await api(undefined, 'POST', '/api/v1/teams', { name: 'Nobody' })).status).toBe(401);
    expect((await api(undefined, 'GET', '/api/v1/teams')).status).toBe(401);
  });

  it('emails an invitation with its /invite link, stores only the token’s hash, previews it publicly and accepts it once', async () => {
    const owner = await newUser('Olive Owner');
    const team = await createTeam(owner, 'Research');
    const guest = await newUser('Gus Guest');
    const invitation = await invite(owner, team.id, { email: guest.email.toUpperCase(), role: 'admin' });
    expect(invitation).toMatchObject({ email: guest.email, role: 'admin', emailed: true, invitedBy: { id: owner.id, name: 'Olive Owner' } });
    expect(invitation.url).toBe(`${t.config.publicUrl}/invite/${invitation.token}`);
    const days = (Date.parse(invitation.expiresAt) - Date.parse(invitation.createdAt)) / 86_400_000;
    expect(days).toBe(7);

    await t.deps.jobs.idle(); // the email leaves from the invitation's event
    const mail = outbox(t.config.dataDir, guest.email).at(-1)!;
    expect(mail).toMatchObject({ kind: 'team_invitation', link: invitation.url });
    // The subject is fixed (the inviter's and the team's names are theirs to choose); the body names them.
    expect(mail.subject).toBe(INVITATION_EMAIL_SUBJECT);
    expect(mail.text).toContain('Olive Owner invited you to join the team “Research” on Parley as an admin.');
    expect(mail.text).toContain(invitation.url);

    const rows = await t.deps.database.db.selectFrom('team_invitations').selectAll().where('id', '=', invitation.id).execute();
    expect(rows[0]?.token_hash).toBe(crypto.createHash('sha256').update(invitation.token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(invitation.token);

    const preview = await api(undefined, 'GET', `/api/v1/invitations/${invitation.token}`);
    expect(preview.status).toBe(200);
    expect(preview.headers['cache-control']).toBe('no-store');
    expect(z.strictObject(InvitationPreviewSchema.shape).parse(preview.body)).toEqual({
      teamName: 'Research',
      invitedBy: 'Olive Owner',
      role: 'admin',
      expiresAt: invitation.expiresAt,
      // The address it was emailed to, for the sign-up form to start with (only that account may accept it).
      email: guest.email,
    });
    expect(preview.raw).not.toContain(owner.email);

    expect((await accept(undefined, invitation.token)).status).toBe(401);
    const accepted = await accept(guest, invitation.token);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ team: { id: team.id, name: 'Research', role: 'admin', memberCount: 2 } });
    const reused = await accept(await newUser('Late Comer'), invitation.token);
    expect(reused.status).toBe(410);
    expect(messageOf(reused.body)).toBe('This invitation has already been used. Ask for a new invitation.');
    expect((await api(undefined, 'GET', `/api/v1/invitations/${invitation.token}`)).status).toBe(410);

    const members = await membersOf(owner, team.id);
    expect(members.map((m) => [m.name, m.email, m.role])).toEqual([
      ['Olive Owner', owner.email, 'owner'],
      ['Gus Guest', guest.email, 'admin'],
    ]);
    const activity = TeamActivityListSchema.parse((await api(guest, 'GET', `/api/v1/teams/${team.id}/activity`)).body).items;
    expect(activity.map((a) => [a.kind, a.actor.name, a.subject])).toEqual([
      ['member_joined', 'Gus Guest', null],
      ['member_invited', 'Olive Owner', guest.email],
    ]);
  });

  it('makes a copyable link nobody is emailed, lists open invitations to owners and admins, and revokes them', async () => {
    const owner = await newUser('Link Owner');
    const team = await createTeam(owner, 'Links');
    const before = fs.existsSync(path.join(t.config.dataDir, 'outbox')) ? fs.readdirSync(path.join(t.config.dataDir, 'outbox')).length : 0;
    const link = await invite(owner, team.id, {});
    expect(link).toMatchObject({ email: null, role: 'member', emailed: false });
    const after = fs.existsSync(path.join(t.config.dataDir, 'outbox')) ? fs.readdirSync(path.join(t.config.dataDir, 'outbox')).length : 0;
    expect(after).toBe(before);
    const kept = await invite(owner, team.id, { email: 'someone@example.com' });

    const open = InvitationListSchema.parse((await api(owner, 'GET', `/api/v1/teams/${team.id}/invitations`)).body).items;
    expect(open.map((i) => i.id).sort()).toEqual([link.id, kept.id].sort());
    expect(JSON.stringify(open)).not.toContain(link.token);

    expect((await api(owner, 'DELETE', `/api/v1/teams/${team.id}/invitations/${link.id}`)).status).toBe(200);
    expect((await api(owner, 'DELETE', `/api/v1/teams/${team.id}/invitations/${link.id}`)).status).toBe(404);
    const revoked = await accept(await newUser('Too Late'), link.token);
    expect(revoked.status).toBe(410);
    expect(messageOf(revoked.body)).toBe('This invitation has been revoked. Ask for a new invitation.');
    const remaining = InvitationListSchema.parse((await api(owner, 'GET', `/api/v1/teams/${team.id}/invitations`)).body).items;
    expect(remaining.map((i) => i.id)).toEqual([kept.id]);
  });

  it('refuses an expired invitation, an unknown one and a malformed token clearly', async () => {
    const owner = await newUser('Exp Owner');
    const team = await createTeam(owner, 'Expiry');
    const invitation = await invite(owner, team.id, { email: 'later@example.com' });
    await t.deps.database.db
      .updateTable('team_invitations')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', invitation.id)
      .execute();
    const expired = await accept(await newUser('Slow Reader'), invitation.token);
    expect(expired.status).toBe(410);
    expect(messageOf(expired.body)).toBe('This invitation has expired. Ask for a new invitation.');
    expect((await api(undefined, 'GET', `/api/v1/invitations/${invitation.token}`)).status).toBe(410);
    // Expired invitations leave the open list.
    expect(InvitationListSchema.parse((await api(owner, 'GET', `/api/v1/teams/${team.id}/invitations`)).body).items).toEqual([]);

    const unknown = await accept(owner, crypto.randomBytes(32).toString('base64url'));
    expect(unknown.status).toBe(404);
    expect(messageOf(unknown.body)).toBe('This invitation does not exist. Check the link, or ask for a new invitation.');
    const malformed = await api(owner, 'POST', '/api/v1/invitations/not-a-token/accept');
    expect(malformed.status).toBe(400);
  });

  it('does not invite a member again, nor let a member accept into a team they are in', async () => {
    const owner = await newUser('Dup Owner');
    const team = await createTeam(owner, 'Dups');
    const member = await newUser('Dup Member');
    await join(owner, team.id, member);
    const again = await api(owner, 'POST', `/api/v1/teams/${team.id}/invitations`, { email: member.email, role: 'member' });
    expect(again.status).toBe(409);
    const link = await invite(owner, team.id, {});
    const twice = await accept(member, link.token);
    expect(twice.status).toBe(409);
    // The link is not used up by that refusal.
    expect((await accept(await newUser('Fresh'), link.token)).status).toBe(200);
    expect((await api(owner, 'POST', `/api/v1/teams/${team.id}/invitations`, { email: 'x@example.com', role: 'owner' })).status).toBe(400);
  });
});

describe('invitations under strain', () => {
  it(`re-inviting an address replaces its earlier invitation, and a team holds at most ${MAX_OPEN_INVITATIONS} open ones`, async () => {
    const owner = await newUser('Cap Owner');
    const team = await createTeam(owner, 'Capped');
    const first = await invite(owner, team.id, { email: 'again@example.com' });
    const second = await invite(owner, team.id, { email: 'again@example.com', role: 'admin' });
    expect((await accept(await newUser('Old Link'), first.token)).status).toBe(410);
    const open = InvitationListSchema.parse((await api(owner, 'GET', `/api/v1/teams/${team.id}/invitations`)).body).items;
    expect(open.map((i) => [i.id, i.role])).toEqual([[second.id, 'admin']]);

    for (let i = open.length; i < MAX_OPEN_INVITATIONS; i += 1) await invite(owner, team.id, {});
    const over = await api(owner, 'POST', `/api/v1/teams/${team.id}/invitations`, { email: 'one-too-many@example.com' });
    expect(over.status).toBe(409);
    expect(messageOf(over.body)).toBe(`This team already has ${MAX_OPEN_INVITATIONS} open invitations. Revoke one before inviting more.`);
    expect(outbox(t.config.dataDir, 'one-too-many@example.com')).toEqual([]);
  });

  it('an invitation whose email cannot be sent says so on the invitation, first retrying, then failed', async () => {
    // SMTP at a port nobody listens on: the mail server is down.
    const down = await buildTestApp({
      env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false', SMTP_HOST: '127.0.0.1', SMTP_PORT: String(await findFreePort()) },
      deps: { eventDelivery: { maxAttempts: 2, retryDelayMs: 200 } },
    });
    try {
      const { token } = await signUpUser(down.app, 'smtp-down', { fullName: 'Down Owner' });
      const headers = { authorization: `Bearer ${token}` };
      const team = (await down.app.inject({ method: 'POST', url: '/api/v1/teams', headers, payload: { name: 'Offline' } })).json() as { id: string };
      const made = await down.app.inject({ method: 'POST', url: `/api/v1/teams/${team.id}/invitations`, headers, payload: { email: 'lost@example.com' } });
      expect(made.statusCode).toBe(201);
      expect(made.json()).toMatchObject({ email: 'lost@example.com', emailed: true, emailStatus: 'sending', emailError: null });
      const invitationOf = async () =>
        InvitationListSchema.parse((await down.app.inject({ method: 'GET', url: `/api/v1/teams/${team.id}/invitations`, headers })).json()).items[0];
      // The first try refused: the inviter reads that it is tried again.
      await expect.poll(async () => (await invitationOf())?.emailStatus, { timeout: 30_000 }).not.toBe('sending');
      expect(await invitationOf()).toMatchObject({
        emailError: expect.stringMatching(/^The email has not been sent yet|^The invitation email could not be sent/),
      });
      // Both tries refused: the inviter reads why, and what to do; the mail server's answer stays in the log.
      await expect.poll(async () => (await invitationOf())?.emailStatus, { timeout: 30_000 }).toBe('failed');
      expect(await invitationOf()).toMatchObject({
        emailStatus: 'failed',
        emailError: 'The invitation email could not be sent. Check the server’s email settings, or invite with a link instead.',
      });
      // The delivery is recorded dead once its last try has returned, a moment after the invitation says failed.
      await expect.poll(async () => (await down.deps.events.failed()).map((d) => [d.subscriber, d.type])).toEqual([['teams', 'invitation.created']]);
      // The operator sees it on /status, and lists and retries it with `npm run events`.
      expect((await down.app.inject({ method: 'GET', url: '/api/v1/status', headers })).json()).toMatchObject({ eventDeliveries: { dead: 1 } });
      // A copyable link needs no email.
      expect((await down.app.inject({ method: 'POST', url: `/api/v1/teams/${team.id}/invitations`, headers, payload: {} })).statusCode).toBe(201);
    } finally {
      await down.close();
    }
  });
});

describe('roles', () => {
  let owner: User;
  let admin: User;
  let member: User;
  let team: Team;
  beforeAll(async () => {
    owner = await newUser('Rita Owner');
    admin = await newUser('Adam Admin');
    member = await newUser('Mia Member');
    team = await createTeam(owner, 'Roles');
    await join(owner, team.id, admin, 'admin');
    await join(owner, team.id, member);
  });
  const roles = async () => Object.fromEntries((await membersOf(owner, team.id)).map((m) => [m.name, m.role]));
  const setRoleIn = (as: User, teamId: string, target: User, role: string) => api(as, 'PATCH', `/api/v1/teams/${teamId}/members/${target.id}`, { role });
  const setRole = (as: User, target: User, role: string) => setRoleIn(as, team.id, target, role);

  it('a member views the team but invites, changes roles and removes nobody', async () => {
    expect((await membersOf(member, team.id)).length).toBe(3);
    expect((await api(member, 'POST', `/api/v1/teams/${team.id}/invitations`, { email: 'm@example.com' })).status).toBe(403);
    expect((await api(member, 'GET', `/api/v1/teams/${team.id}/invitations`)).status).toBe(403);
    expect((await setRole(member, admin, 'member')).status).toBe(403);
    expect((await api(member, 'DELETE', `/api/v1/teams/${team.id}/members/${admin.id}`)).status).toBe(403);
    expect((await api(member, 'DELETE', `/api/v1/teams/${team.id}`)).status).toBe(403);
    expect(await roles()).toEqual({ 'Rita Owner': 'owner', 'Adam Admin': 'admin', 'Mia Member': 'member' });
  });

  it('an admin invites and changes roles below owner, but neither touches the owner nor transfers nor deletes the team', async () => {
    await invite(admin, team.id, { email: 'invited-by-admin@example.com', role: 'admin' });
    const promoted = await setRole(admin, member, 'admin');
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ userId: member.id, role: 'admin' });
    expect((await setRole(admin, member, 'member')).status).toBe(200);
    expect((await setRole(admin, owner, 'member')).status).toBe(403);
    expect((await setRole(admin, member, 'owner')).status).toBe(403);
    expect((await api(admin, 'DELETE', `/api/v1/teams/${team.id}/members/${owner.id}`)).status).toBe(403);
    expect((await api(admin, 'DELETE', `/api/v1/teams/${team.id}`)).status).toBe(403);
    expect(await roles()).toEqual({ 'Rita Owner': 'owner', 'Adam Admin': 'admin', 'Mia Member': 'member' });
  });

  it('the last owner cannot leave or step down without transferring; after a transfer they are an admin and may leave', async () => {
    const leave = await api(owner, 'DELETE', `/api/v1/teams/${team.id}/members/${owner.id}`);
    expect(leave.status).toBe(409);
    expect(messageOf(leave.body)).toBe('You are the owner of this team: transfer ownership to another member before leaving, or delete the team.');
    expect((await setRole(owner, owner, 'admin')).status).toBe(409);

    const transfer = await setRole(owner, admin, 'owner');
    expect(transfer.status).toBe(200);
    expect(await roles()).toEqual({ 'Rita Owner': 'admin', 'Adam Admin': 'owner', 'Mia Member': 'member' });
    expect((await api(owner, 'DELETE', `/api/v1/teams/${team.id}/members/${owner.id}`)).status).toBe(200);
    expect(TeamListSchema.parse((await api(owner, 'GET', '/api/v1/teams')).body).items.map((x) => x.id)).not.toContain(team.id);
    expect((await api(owner, 'GET', `/api/v1/teams/${team.id}/members`)).status).toBe(404);
  });

  it('the only owner of a team with other members cannot delete their account until they hand the team over', async () => {
    const founder = await newUser('Frida Founder');
    const crew = await createTeam(founder, 'Crew');
    await join(founder, crew.id, member);
    const deleteAccount = () => api(founder, 'DELETE', '/api/v1/me', { email: founder.email, password: 'secret12' });
    const refused = await deleteAccount();
    expect(refused.status).toBe(409);
    expect(messageOf(refused.body)).toBe('You own the team “Crew”. Make another member its owner, or delete the team, before you delete your account.');
    expect((await membersOf(member, crew.id)).map((m) => m.name)).toContain('Frida Founder');
    expect((await setRoleIn(founder, crew.id, member, 'owner')).status).toBe(200);
    expect((await deleteAccount()).status).toBe(200);
    expect((await membersOf(member, crew.id)).map((m) => [m.name, m.role])).toEqual([['Mia Member', 'owner']]);
  });

  it('the owner deletes the team: its members lose it at once', async () => {
    const doomed = await createTeam(owner, 'Doomed');
    await join(owner, doomed.id, member);
    expect((await api(owner, 'DELETE', `/api/v1/teams/${doomed.id}`)).status).toBe(200);
    expect((await api(member, 'GET', `/api/v1/teams/${doomed.id}/members`)).status).toBe(404);
    expect(TeamListSchema.parse((await api(member, 'GET', '/api/v1/teams')).body).items.map((x) => x.id)).not.toContain(doomed.id);
  });
});

describe('meetings shared with a team', () => {
  let owner: User;
  let member: User;
  let admin: User;
  let stranger: User;
  let otherTeamMember: User;
  let team: Team;
  let otherTeam: Team;
  let shared: MeetingSummary;
  let privateOfMember: MeetingSummary;

  beforeAll(async () => {
    [owner, member, admin, stranger, otherTeamMember] = await Promise.all([
      newUser('Sam Sharer'),
      newUser('Meg Reader'),
      newUser('Al Admin'),
      newUser('Stan Stranger'),
      newUser('Otto Other'),
    ]);
    team = await createTeam(owner, 'Product');
    await join(owner, team.id, member);
    await join(owner, team.id, admin, 'admin');
    otherTeam = await createTeam(otherTeamMember, 'Elsewhere');
    shared = await meetingTitled(owner, 'Weekly Team Standup');
    privateOfMember = await meetingTitled(member, 'Engineering Retrospective');
    await Promise.all([withAudio(shared.id), withAudio(privateOfMember.id)]);
  });

  it('is private until its owner shares it; then the team reads, searches and exports it, marked with its owner', async () => {
    expect(await readStatuses(member, shared.id)).toEqual(CANNOT_READ);
    const response = await shareWith(owner, shared.id, team.id);
    expect(response.status).toBe(200);
    expect(MeetingDetailSchema.parse(response.body)).toMatchObject({ teamId: team.id, access: 'owner', owner: { id: owner.id, name: 'Sam Sharer' } });

    expect(await readStatuses(member, shared.id)).toEqual(CAN_READ);
    const detail = MeetingDetailSchema.parse((await api(member, 'GET', `/api/v1/meetings/${shared.id}`)).body);
    expect(detail).toMatchObject({ title: 'Weekly Team Standup', access: 'team', teamId: team.id, owner: { id: owner.id, name: 'Sam Sharer' } });
    expect(detail.segments.length).toBeGreaterThan(3);
    const found = MeetingListResponseSchema.parse((await api(member, 'GET', '/api/v1/meetings?q=standup')).body).items;
    expect(found.map((m) => [m.id, m.access, m.owner?.name])).toContainEqual([shared.id, 'team', 'Sam Sharer']);
    const own = MeetingListResponseSchema.parse((await api(member, 'GET', '/api/v1/meetings?q=standup')).body).items.find((m) => m.owner?.id === member.id);
    expect(own?.access).toBe('owner');
  });

  it('counts in the members’ insights, analytics and action-item tracker', async () => {
    // Analytics leave sample meetings out: a meeting of the owner's own (imported) is counted there.
    const ownMeeting = await api(owner, 'POST', '/api/v1/meetings/imports', { fileName: 'weekly.txt', content: 'Sam: The budget is approved.' });
    expect(ownMeeting.status).toBe(201);
    const ownId = (ownMeeting.body as { id: string }).id;
    await shareWith(owner, ownId, team.id);
    await shareWith(owner, shared.id, team.id);
    const withShared = await api(member, 'GET', '/api/v1/insights');
    const analyticsWith = await api(member, 'GET', '/api/v1/analytics?weeks=52');
    const tracker = await api(member, 'GET', '/api/v1/action-items?status=all&pageSize=100');
    expect(withShared.status).toBe(200);
    expect(tracker.status, tracker.raw).toBe(200);
    const meetingsIn = (body: unknown) => (body as { meetings: number }).meetings;
    const trackerMeetings = (body: unknown) => (body as { items: { meeting: { id: string } }[] }).items.map((i) => i.meeting.id);
    expect(trackerMeetings(tracker.body)).toContain(shared.id);
    await shareWith(owner, shared.id, null);
    await shareWith(owner, ownId, null);
    const without = await api(member, 'GET', '/api/v1/insights');
    expect(meetingsIn(withShared.body)).toBe(meetingsIn(without.body) + 2);
    const analyticsWithout = await api(member, 'GET', '/api/v1/analytics?weeks=52');
    const analyticsMeetings = (body: unknown) => (body as { totals: { meetings: number } }).totals.meetings;
    expect(analyticsMeetings(analyticsWith.body)).toBe(analyticsMeetings(analyticsWithout.body) + 1);
    expect(trackerMeetings((await api(member, 'GET', '/api/v1/action-items?status=all&pageSize=100')).body)).not.toContain(shared.id);
    await shareWith(owner, shared.id, team.id);
  });

  it('is marked with its owner ("Shared by") wherever lists across meetings name it for a member, and nowhere for its owner', async () => {
    await shareWith(owner, shared.id, team.id);
    // Every meeting reference in an answer, wherever it sits (topics, sentiment, items, mentions, links, filters).
    const refsIn = (value: unknown): { id: string; sharedBy?: unknown }[] => {
      if (Array.isArray(value)) return value.flatMap(refsIn);
      if (value === null || typeof value !== 'object') return [];
      const ref = MeetingRefSchema.safeParse(value);
      const found = ref.success && 'startedAt' in value ? [ref.data] : [];
      return [...found, ...Object.values(value).flatMap(refsIn)];
    };
    const answers = async (user: User) => ({
      insights: (await api(user, 'GET', '/api/v1/insights')).body as { actionItems: unknown; topics: unknown; sentiment: unknown },
      tracker: (await api(user, 'GET', '/api/v1/action-items?status=all&pageSize=100')).body as { items: unknown; meetings: unknown },
      decisions: (await api(user, 'GET', '/api/v1/decisions?pageSize=100')).body as { items: unknown },
    });
    const asMember = await answers(member);
    for (const part of [asMember.insights.actionItems, asMember.tracker.items, asMember.tracker.meetings, asMember.decisions.items]) {
      expect(refsIn(part).map((ref) => ref.id)).toContain(shared.id);
    }
    const memberRefs = refsIn(asMember);
    for (const ref of memberRefs) {
      if (ref.id === shared.id) expect(ref.sharedBy).toEqual({ id: owner.id, name: 'Sam Sharer' });
      else expect(ref.sharedBy).toBeUndefined();
    }
    expect(memberRefs.some((ref) => ref.id !== shared.id)).toBe(true);
    const ownerRefs = refsIn(await answers(owner));
    expect(ownerRefs.map((ref) => ref.id)).toContain(shared.id);
    for (const ref of ownerRefs) expect(ref.sharedBy).toBeUndefined();
  });

  it('only its owner edits, deletes or shares it further', async () => {
    await shareWith(owner, shared.id, team.id);
    expect(await changeStatuses(member, shared)).toEqual([404, 404, 404, 404, 404, 404, 404, 404, 404]);
    expect(await changeStatuses(admin, shared)).toEqual([404, 404, 404, 404, 404, 404, 404, 404, 404]);
    const detail = MeetingDetailSchema.parse((await api(owner, 'GET', `/api/v1/meetings/${shared.id}`)).body);
    expect(detail.title).toBe('Weekly Team Standup');
  });

  it('is shared only with a team its owner belongs to', async () => {
    const refused = await shareWith(owner, shared.id, otherTeam.id);
    expect(refused.status).toBe(403);
    expect(messageOf(refused.body)).toBe('You can only share a meeting with a team you belong to.');
    expect((await shareWith(owner, shared.id, crypto.randomUUID())).status).toBe(403);
    expect((await api(owner, 'POST', '/api/v1/meetings', { title: 'Auto', teamId: otherTeam.id })).status).toBe(403);
    expect((await shareWith(owner, crypto.randomUUID(), team.id)).status).toBe(404);
    expect((await shareWith(owner, shared.id, 'not-a-uuid' as string)).status).toBe(400);
  });

  it('an admin cannot read a member’s private meeting; a stranger and another team’s member reach nothing by any id', async () => {
    await shareWith(owner, shared.id, team.id);
    expect(await readStatuses(admin, privateOfMember.id)).toEqual(CANNOT_READ);
    expect(await readStatuses(owner, privateOfMember.id)).toEqual(CANNOT_READ);
    for (const outsider of [stranger, otherTeamMember]) {
      expect(await readStatuses(outsider, shared.id)).toEqual(CANNOT_READ);
      const invitation = await invite(owner, team.id, { email: `nobody-${crypto.randomUUID()}@example.com` });
      const attempts = [
        (await api(outsider, 'GET', `/api/v1/teams/${team.id}/members`)).status,
        (await api(outsider, 'GET', `/api/v1/teams/${team.id}/activity`)).status,
        (await api(outsider, 'GET', `/api/v1/teams/${team.id}/invitations`)).status,
        (await api(outsider, 'POST', `/api/v1/teams/${team.id}/invitations`, { email: 'x@example.com' })).status,
        (await api(outsider, 'DELETE', `/api/v1/teams/${team.id}/invitations/${invitation.id}`)).status,
        (await api(outsider, 'PATCH', `/api/v1/teams/${team.id}/members/${member.id}`, { role: 'admin' })).status,
        (await api(outsider, 'DELETE', `/api/v1/teams/${team.id}/members/${member.id}`)).status,
        (await api(outsider, 'DELETE', `/api/v1/teams/${team.id}`)).status,
        (await api(outsider, 'POST', `/api/v1/meetings/${shared.id}/share`)).status,
        (await api(outsider, 'GET', `/api/v1/meetings/${shared.id}/share`)).status,
        (await shareWith(outsider, shared.id, otherTeam.id)).status,
      ];
      expect(attempts).toEqual([404, 404, 404, 404, 404, 404, 404, 404, 404, 404, 404]);
      // Another team's id leads nowhere from this team's routes either.
      expect((await api(owner, 'GET', `/api/v1/teams/${otherTeam.id}/members`)).status).toBe(404);
    }
    expect((await membersOf(owner, team.id)).length).toBe(3);
  });

  it('unsharing or removing a member takes effect with the next request', async () => {
    await shareWith(owner, shared.id, team.id);
    expect(await readStatuses(member, shared.id)).toEqual(CAN_READ);
    expect((await shareWith(owner, shared.id, null)).status).toBe(200);
    expect(await readStatuses(member, shared.id)).toEqual(CANNOT_READ);
    expect(await readStatuses(owner, shared.id)).toEqual(CAN_READ);

    await shareWith(owner, shared.id, team.id);
    const leaving = await newUser('Rae Removed');
    await join(owner, team.id, leaving);
    expect(await readStatuses(leaving, shared.id)).toEqual(CAN_READ);
    // A player's link, taken while a member, stops working with the removal too.
    const issued = AudioLinkSchema.parse((await api(leaving, 'POST', `/api/v1/meetings/${shared.id}/audio/link`)).body);
    const link = new URL(issued.url, t.baseUrl);
    expect((await api(undefined, 'GET', `${link.pathname}${link.search}`)).status).toBe(200);
    expect((await api(admin, 'DELETE', `/api/v1/teams/${team.id}/members/${leaving.id}`)).status).toBe(200);
    expect(await readStatuses(leaving, shared.id)).toEqual(CANNOT_READ);
    expect((await api(undefined, 'GET', `${link.pathname}${link.search}`)).status).toBe(404);
    expect((await api(leaving, 'GET', `/api/v1/teams/${team.id}/members`)).status).toBe(404);
    expect((await api(leaving, 'GET', `/api/v1/teams/${team.id}/activity`)).status).toBe(404);
  });

  it('a download under way stops when its reader is removed from the team or the meeting is unshared; its owner’s goes on', async () => {
    const recording = await meetingTitled(owner, 'Quarterly Sales Review');
    await withAudio(recording.id, 48 * 1024 * 1024);
    await shareWith(owner, recording.id, team.id);
    const leaving = await newUser('Dana Downloading');
    await join(owner, team.id, leaving);

    const [ownersDownload, membersDownload] = await Promise.all([
      startDownload(owner, `/api/v1/meetings/${recording.id}/audio`),
      startDownload(leaving, `/api/v1/meetings/${recording.id}/audio`),
    ]);
    expect((await api(admin, 'DELETE', `/api/v1/teams/${team.id}/members/${leaving.id}`)).status).toBe(200);
    expect(await membersDownload.rest()).toBe('cut');
    expect(await ownersDownload.rest()).toBe('whole');

    const stillMember = await startDownload(member, `/api/v1/meetings/${recording.id}/audio`);
    expect((await shareWith(owner, recording.id, null)).status).toBe(200);
    expect(await stillMember.rest()).toBe('cut');
    // Ended reads are forgotten, however they ended.
    await expect.poll(() => t.deps.services.meetings.readsInFlight()).toBe(0);
  });

  it('the activity tells who shared, downloaded, shared insights by link, invited, joined and removed, with the meeting’s title', async () => {
    const ownTeam = await createTeam(owner, 'Activity');
    const reader = await newUser('Dee Downloader');
    await join(owner, ownTeam.id, reader);
    const meeting = await meetingTitled(owner, 'Product Roadmap Review');
    await shareWith(owner, meeting.id, ownTeam.id);
    expect((await api(reader, 'GET', `/api/v1/meetings/${meeting.id}/export?format=md`)).status).toBe(200);
    // A public link to the notes of a private meeting is nothing the team hears of; of a shared one, it is.
    const privateOne = await meetingTitled(owner, 'Weekly Team Standup');
    expect((await api(owner, 'POST', `/api/v1/meetings/${privateOne.id}/share`)).status).toBe(201);
    expect((await api(owner, 'POST', `/api/v1/meetings/${meeting.id}/share`)).status).toBe(201);
    expect((await api(owner, 'DELETE', `/api/v1/teams/${ownTeam.id}/members/${reader.id}`)).status).toBe(200);
    const items = TeamActivityListSchema.parse((await api(owner, 'GET', `/api/v1/teams/${ownTeam.id}/activity`)).body).items;
    expect(items.map((a) => [a.kind, a.actor.name, a.meeting, a.subject])).toEqual([
      ['member_removed', 'Sam Sharer', null, 'Dee Downloader'],
      ['insights_shared', 'Sam Sharer', { id: meeting.id, title: 'Product Roadmap Review' }, null],
      ['transcript_downloaded', 'Dee Downloader', { id: meeting.id, title: 'Product Roadmap Review' }, null],
      ['meeting_shared', 'Sam Sharer', { id: meeting.id, title: 'Product Roadmap Review' }, null],
      ['member_joined', 'Dee Downloader', null, null],
      ['member_invited', 'Sam Sharer', null, reader.email],
    ]);
    // Unshared: the events keep the title, without a link members could no longer open.
    await shareWith(owner, meeting.id, null);
    const after = TeamActivityListSchema.parse((await api(owner, 'GET', `/api/v1/teams/${ownTeam.id}/activity`)).body).items;
    expect(after.find((a) => a.kind === 'meeting_shared')?.meeting).toEqual({ id: null, title: 'Product Roadmap Review' });
  });

  it('a recording or an import can be shared from the start: the team sees it and its activity says recorded or imported', async () => {
    const starter = await newUser('Ivy Importer');
    const colleague = await newUser('Cole League');
    const startTeam = await createTeam(starter, 'From the start');
    await join(starter, startTeam.id, colleague);

    const imported = await api(starter, 'POST', '/api/v1/meetings/imports', {
      fileName: 'sync.txt',
      content: 'Ivy: We ship on Friday.\nCole: I will write the release notes.',
      teamId: startTeam.id,
    });
    expect(imported.status, imported.raw).toBe(201);
    const importedId = (imported.body as { id: string }).id;
    expect(imported.body).toMatchObject({ teamId: startTeam.id, access: 'owner' });
    expect(await readStatuses(colleague, importedId)).toMatchObject({ detail: 200, export: 200, listed: true });
    const refused = await api(starter, 'POST', '/api/v1/meetings/imports', { fileName: 'x.txt', content: 'Ivy: hello', teamId: crypto.randomUUID() });
    expect(refused.status).toBe(403);

    // /record's Auto-Share: the meeting is the team's while it is being recorded; "recorded" once its transcript is stored.
    const created = await api(starter, 'POST', '/api/v1/meetings', { title: 'Recorded for the team', teamId: startTeam.id });
    expect(created.status).toBe(201);
    const recordedId = (created.body as { id: string }).id;
    expect((await api(colleague, 'GET', `/api/v1/meetings/${recordedId}`)).body).toMatchObject({ status: 'recording', access: 'team' });
    const meetings = t.deps.services.meetings;
    expect(await meetings.recordingStored(recordedId, { key: 'recordings/none.webm', mime: 'audio/webm', bytes: 10, durationSeconds: 5 })).toBe(true);
    expect(await meetings.completeTranscription(recordedId, { speakers: [], segments: [{ speaker: null, startMs: 0, endMs: 1000, text: 'Hello team' }] })).toBe(
      true,
    );

    await t.deps.jobs.idle(); // "recorded" is written from the transcript's event, delivered by the job queue
    const items = TeamActivityListSchema.parse((await api(colleague, 'GET', `/api/v1/teams/${startTeam.id}/activity`)).body).items;
    expect(items.map((a) => [a.kind, a.actor.name, a.meeting?.title])).toEqual([
      ['meeting_recorded', 'Ivy Importer', 'Recorded for the team'],
      ['transcript_downloaded', 'Cole League', 'sync'],
      ['meeting_imported', 'Ivy Importer', 'sync'],
      ['member_joined', 'Cole League', undefined],
      ['member_invited', 'Ivy Importer', undefined],
    ]);
  });

  it('member cards: role, availability and status, last active, meetings recorded and attended', async () => {
    const cardOwner = await newUser('Cora Cards');
    const cardsTeam = await createTeam(cardOwner, 'Cards');
    const attendee = await newUser('Sarah Miller');
    await join(cardOwner, cardsTeam.id, attendee);
    // The standup's transcript has a speaker named Sarah Miller: she attended it once it is shared.
    const standup = await meetingTitled(cardOwner, 'Weekly Team Standup');
    expect(standup.participants).toContain('Sarah Miller');
    await shareWith(cardOwner, standup.id, cardsTeam.id);
    // Listed as a participant (in any case) of another shared meeting.
    const onboarding = await meetingTitled(cardOwner, 'Client Onboarding: Acme Corp');
    expect((await api(cardOwner, 'PATCH', `/api/v1/meetings/${onboarding.id}`, { teamId: cardsTeam.id, participants: ['sarah miller'] })).status).toBe(200);
    // A private meeting she took part in does not count.
    const retro = await meetingTitled(cardOwner, 'Engineering Retrospective');
    await api(cardOwner, 'PATCH', `/api/v1/meetings/${retro.id}`, { participants: ['Sarah Miller'] });

    let cards = await membersOf(attendee, cardsTeam.id);
    const card = (name: string) => cards.find((c) => c.name === name)!;
    expect(card('Cora Cards')).toMatchObject({
      role: 'owner',
      email: cardOwner.email,
      availability: 'active',
      status: 'Available',
      meetingsRecorded: 2,
      meetingsAttended: 0,
    });
    expect(card('Sarah Miller')).toMatchObject({ role: 'member', email: attendee.email, meetingsRecorded: 0, meetingsAttended: 2 });
    expect(Date.now() - Date.parse(card('Cora Cards').lastActiveAt!)).toBeLessThan(10 * 60_000);

    // Recording now: busy, "In a meeting".
    const recording = await api(attendee, 'POST', '/api/v1/meetings', { title: 'Live now' });
    expect(recording.status).toBe(201);
    cards = await membersOf(cardOwner, cardsTeam.id);
    expect(card('Sarah Miller')).toMatchObject({ availability: 'busy', status: 'In a meeting' });
    await api(attendee, 'DELETE', `/api/v1/meetings/${(recording.body as { id: string }).id}`);

    // Not seen for 20 minutes: away.
    const longAgo = new Date(Date.now() - 20 * 60_000).toISOString();
    await t.deps.database.db
      .updateTable('auth_sessions')
      .set({ created_at: longAgo, updated_at: longAgo, refreshed_at: longAgo })
      .where('user_id', '=', attendee.id)
      .execute();
    await t.deps.database.db.updateTable('auth_users').set({ last_sign_in_at: longAgo }).where('id', '=', attendee.id).execute();
    cards = await membersOf(cardOwner, cardsTeam.id);
    expect(card('Sarah Miller')).toMatchObject({ availability: 'away', status: 'Away', lastActiveAt: longAgo });
  });
});

/** A /realtime socket with its messages queued in order. */
async function connect(user: User) {
  const socket = new WebSocket(`${t.baseUrl.replace('http', 'ws')}/realtime`);
  const inbox: RealtimeServerMessage[] = [];
  const waiters: Array<(m: RealtimeServerMessage) => void> = [];
  socket.on('message', (data) => {
    const message = RealtimeServerMessageSchema.parse(JSON.parse(String(data)));
    const waiter = waiters.shift();
    if (waiter) waiter(message);
    else inbox.push(message);
  });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const next = () => new Promise<RealtimeServerMessage>((resolve) => (inbox.length > 0 ? resolve(inbox.shift()!) : waiters.push(resolve)));
  socket.send(JSON.stringify({ type: 'auth', accessToken: user.token }));
  expect(await next()).toEqual({ type: 'ready', userId: user.id });
  /** The next message but a `team.changed` (which membership changes send along the way, in their own time). */
  const nextBesidesTeamChanges = async (): Promise<RealtimeServerMessage> => {
    const message = await next();
    return message.type === 'team.changed' ? nextBesidesTeamChanges() : message;
  };
  /** The next message besides team changes, after everything the server sent before answering this ping. */
  const nextAfterPing = async () => {
    socket.send(JSON.stringify({ type: 'ping' }));
    return nextBesidesTeamChanges();
  };
  /** Waits for a `team.changed` of this team (other team changes are skipped); fails the test if none comes. */
  const teamChanged = async (teamId: string): Promise<void> => {
    const deadline = Date.now() + 5000;
    for (;;) {
      const message = await Promise.race([
        next(),
        new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), Math.max(0, deadline - Date.now()))),
      ]);
      if (!message) throw new Error(`no team.changed for ${teamId}`);
      if (message.type === 'team.changed' && message.teamId === teamId) return;
    }
  };
  return { socket, next: nextBesidesTeamChanges, nextAfterPing, teamChanged };
}

describe('realtime events of a shared meeting', () => {
  it('reach the team’s members while they are members, and never anyone else', async () => {
    const owner = await newUser('Evan Events');
    const member = await newUser('Mo Listener');
    const stranger = await newUser('Nina Nobody');
    const team = await createTeam(owner, 'Live');
    await join(owner, team.id, member);
    const meeting = await meetingTitled(owner, 'Weekly Team Standup');
    await shareWith(owner, meeting.id, team.id);

    const [o, m, s] = await Promise.all([connect(owner), connect(member), connect(stranger)]);
    const event = (progress: number): MeetingProgressEvent => ({
      type: 'meeting.progress',
      meetingId: meeting.id,
      status: 'processing',
      stage: 'transcribing',
      progress,
      failureReason: null,
    });
    t.deps.services.meetings.announce(meeting.id, owner.id, event(0.25));
    expect(await o.next()).toEqual(event(0.25));
    expect(await m.next()).toEqual(event(0.25));
    expect(await s.nextAfterPing()).toEqual({ type: 'pong' });

    expect((await api(owner, 'DELETE', `/api/v1/teams/${team.id}/members/${member.id}`)).status).toBe(200);
    t.deps.services.meetings.announce(meeting.id, owner.id, event(0.5));
    expect(await o.next()).toEqual(event(0.5));
    // The owner has it; the removed member's next message is the answer to their ping, not the event.
    expect(await m.nextAfterPing()).toEqual({ type: 'pong' });
    expect(await s.nextAfterPing()).toEqual({ type: 'pong' });
    for (const c of [o, m, s]) c.socket.close();
  });
});

describe('/team live', () => {
  it('a heartbeat keeps a member Available; recording, membership and activity changes reach the team’s open pages', async () => {
    const owner = await newUser('Lena Live');
    const member = await newUser('Pia Present');
    const team = await createTeam(owner, 'Presence');
    await join(owner, team.id, member);
    // Not seen by auth for 30 minutes (no sign-in, no token refresh): Away.
    const longAgo = new Date(Date.now() - 30 * 60_000).toISOString();
    await t.deps.database.db
      .updateTable('auth_sessions')
      .set({ created_at: longAgo, updated_at: longAgo, refreshed_at: longAgo })
      .where('user_id', '=', member.id)
      .execute();
    await t.deps.database.db.updateTable('auth_users').set({ last_sign_in_at: longAgo }).where('id', '=', member.id).execute();
    const card = async () => (await membersOf(owner, team.id)).find((c) => c.userId === member.id)!;
    expect(await card()).toMatchObject({ availability: 'away', status: 'Away', lastActiveAt: longAgo });

    const o = await connect(owner);
    // Their open tab's heartbeat: Available again, and the owner's page hears of it.
    expect((await api(member, 'POST', '/api/v1/teams/presence')).status).toBe(200);
    await o.teamChanged(team.id);
    const seen = await card();
    expect(seen).toMatchObject({ availability: 'active', status: 'Available' });
    expect(Date.now() - Date.parse(seen.lastActiveAt!)).toBeLessThan(60_000);
    // Another beat while already Available changes nothing the page shows: no event.
    expect((await api(member, 'POST', '/api/v1/teams/presence')).status).toBe(200);
    expect(await o.nextAfterPing()).toEqual({ type: 'pong' });
    expect((await api(undefined, 'POST', '/api/v1/teams/presence')).status).toBe(401);

    // Recording: "In a meeting", announced as it starts and as the recording is stored.
    const recording = await api(member, 'POST', '/api/v1/meetings', { title: 'Pia records' });
    await o.teamChanged(team.id);
    expect(await card()).toMatchObject({ availability: 'busy', status: 'In a meeting' });
    const recordingId = (recording.body as { id: string }).id;
    await t.deps.services.meetings.recordingUnreadable(recordingId, 'test: no audio');
    await o.teamChanged(team.id);
    expect(await card()).toMatchObject({ availability: 'active' });

    // Sharing a meeting (the team's activity) reaches both; unsharing too.
    const m = await connect(member);
    const shared = await meetingTitled(owner, 'Weekly Team Standup');
    await shareWith(owner, shared.id, team.id);
    await Promise.all([o.teamChanged(team.id), m.teamChanged(team.id)]);
    await shareWith(owner, shared.id, null);
    await Promise.all([o.teamChanged(team.id), m.teamChanged(team.id)]);

    // Roles and removal: the removed member's page hears it too, and nothing after.
    expect((await api(owner, 'PATCH', `/api/v1/teams/${team.id}/members/${member.id}`, { role: 'admin' })).status).toBe(200);
    await Promise.all([o.teamChanged(team.id), m.teamChanged(team.id)]);
    expect((await api(owner, 'DELETE', `/api/v1/teams/${team.id}/members/${member.id}`)).status).toBe(200);
    await Promise.all([o.teamChanged(team.id), m.teamChanged(team.id)]);
    expect((await api(owner, 'PATCH', `/api/v1/teams/${team.id}`, { name: 'Presence 2' })).status).toBe(200);
    await o.teamChanged(team.id);
    expect(await m.nextAfterPing()).toEqual({ type: 'pong' });
    for (const c of [o, m]) c.socket.close();
  });

  it('member cards carry the profile picture this server serves, and nothing else', async () => {
    const owner = await newUser('Ava Tar');
    const team = await createTeam(owner, 'Pictures');
    expect((await membersOf(owner, team.id))[0]!.avatarUrl).toBeNull();
    const setMetadata = (metadata: object) =>
      t.deps.database.db
        .updateTable('auth_users')
        .set({ raw_user_meta_data: JSON.stringify({ full_name: 'Ava Tar', ...metadata }) })
        .where('id', '=', owner.id)
        .execute();
    await setMetadata({ avatar_url: `/api/v1/avatars/${owner.id}?v=abc` });
    expect((await membersOf(owner, team.id))[0]!.avatarUrl).toBe(`/api/v1/avatars/${owner.id}?v=abc`);
    await setMetadata({ avatar_url: 'https://tracker.example.com/pixel.png' });
    expect((await membersOf(owner, team.id))[0]!.avatarUrl).toBeNull();
  });
});

describe('invitations speak for their inviter only while they may invite (#31 R3-2)', () => {
  const stillOpen = async (owner: User, teamId: string) =>
    InvitationListSchema.parse((await api(owner, 'GET', `/api/v1/teams/${teamId}/invitations`)).body).items.map((i) => i.id);

  it('a removed admin’s own link does not bring them back, and their open invitations are revoked', async () => {
    const owner = await newUser('Rhea Owner');
    const admin = await newUser('Ravi Removed');
    const team = await createTeam(owner, 'Revocations');
    await join(owner, team.id, admin, 'admin');
    const comeback = await invite(admin, team.id, { role: 'admin' });
    const emailed = await invite(admin, team.id, { email: 'friend-of-ravi@example.com', role: 'member' });
    const ownersOwn = await invite(owner, team.id, {});

    expect((await api(owner, 'DELETE', `/api/v1/teams/${team.id}/members/${admin.id}`)).status).toBe(200);
    const back = await accept(admin, comeback.token);
    expect(back.status).toBe(410);
    expect(messageOf(back.body)).toBe('This invitation has been revoked. Ask for a new invitation.');
    expect((await api(admin, 'GET', `/api/v1/teams/${team.id}/members`)).status).toBe(404);
    expect(await stillOpen(owner, team.id)).toEqual([ownersOwn.id]);
    expect((await accept(await newUser('Friend Of Ravi'), emailed.token)).status).toBe(410);
  });

  it('an admin who leaves, is made a member or deletes their account leaves no invitation that works', async () => {
    const owner = await newUser('Lena Owner');
    const team = await createTeam(owner, 'Leavers');
    const [leaver, demoted, deleted] = await Promise.all([newUser('Lou Leaver'), newUser('Dora Demoted'), newUser('Dan Deleted')]);
    for (const admin of [leaver, demoted, deleted]) await join(owner, team.id, admin, 'admin');
    const [byLeaver, byDemoted, byDeleted] = await Promise.all([
      invite(leaver, team.id, { role: 'admin' }),
      invite(demoted, team.id, { role: 'admin' }),
      invite(deleted, team.id, { role: 'member' }),
    ]);

    expect((await api(leaver, 'DELETE', `/api/v1/teams/${team.id}/members/${leaver.id}`)).status).toBe(200);
    expect((await api(owner, 'PATCH', `/api/v1/teams/${team.id}/members/${demoted.id}`, { role: 'member' })).status).toBe(200);
    expect((await api(deleted, 'DELETE', '/api/v1/me', { email: deleted.email, password: 'secret12' })).status).toBe(200);

    expect(await stillOpen(owner, team.id)).toEqual([]);
    for (const invitation of [byLeaver, byDemoted, byDeleted]) {
      const taken = await accept(await newUser('Link Holder'), invitation.token);
      expect(taken.status).toBe(410);
      expect(messageOf(taken.body)).toBe('This invitation has been revoked. Ask for a new invitation.');
    }
    // A demoted admin invites no more either.
    expect((await api(demoted, 'POST', `/api/v1/teams/${team.id}/invitations`, {})).status).toBe(403);
    expect((await membersOf(owner, team.id)).map((m) => [m.name, m.role])).toEqual([
      ['Lena Owner', 'owner'],
      ['Dora Demoted', 'member'],
    ]);
  });

  it('an invitation left open by an inviter who may no longer invite (made before they lost the right) is refused', async () => {
    const owner = await newUser('Olga Owner');
    const admin = await newUser('Abe Admin');
    const team = await createTeam(owner, 'Stale Links');
    await join(owner, team.id, admin, 'admin');
    const stale = await invite(admin, team.id, { role: 'admin' });
    // The inviter's role changed without the revocation this server now makes (an older server's data).
    await t.deps.database.db.updateTable('team_members').set({ role: 'member' }).where('team_id', '=', team.id).where('user_id', '=', admin.id).execute();
    const preview = await api(undefined, 'GET', `/api/v1/invitations/${stale.token}`);
    expect(preview.status).toBe(410);
    const taken = await accept(await newUser('Late Admin'), stale.token);
    expect(taken.status).toBe(410);
    expect(messageOf(taken.body)).toBe('This invitation no longer works: the person who sent it can no longer invite to this team. Ask for a new invitation.');
    expect((await membersOf(owner, team.id)).length).toBe(2);
  });
});

describe('an emailed invitation is for its address (#31 I-2)', () => {
  it('only the account of the invited address accepts it; a link to copy is anyone’s', async () => {
    const owner = await newUser('Ines Owner');
    const guest = await newUser('Gil Guest');
    const forwardedTo = await newUser('Fay Forwarded');
    const team = await createTeam(owner, 'Bound');
    const invitation = await invite(owner, team.id, { email: guest.email, role: 'member' });

    const other = await accept(forwardedTo, invitation.token);
    expect(other.status).toBe(403);
    expect(messageOf(other.body)).toBe(
      'This invitation was emailed to another address. Sign in with the account of that address to accept it, or ask for an invitation to yours.',
    );
    // The refusal does not use the invitation up.
    expect((await accept(guest, invitation.token)).status).toBe(200);
    const link = await invite(owner, team.id, {});
    expect((await accept(forwardedTo, link.token)).status).toBe(200);
    expect((await membersOf(owner, team.id)).map((m) => m.name)).toEqual(['Ines Owner', 'Gil Guest', 'Fay Forwarded']);
  });
});

describe('a member who leaves takes their meetings with them (#31 R3-3)', () => {
  it('the meetings they shared become private when they leave or are removed: the rest of the team reads, lists and exports them no more', async () => {
    const owner = await newUser('Tess Owner');
    const [leaver, removed, reader] = await Promise.all([newUser('Lee Leaving'), newUser('Rob Removed'), newUser('Rae Reader')]);
    const team = await createTeam(owner, 'Departures');
    for (const member of [leaver, removed, reader]) await join(owner, team.id, member);
    const leaversMeeting = await meetingTitled(leaver, 'Weekly Team Standup');
    const removedsMeeting = await meetingTitled(removed, 'Weekly Team Standup');
    const ownersMeeting = await meetingTitled(owner, 'Weekly Team Standup');
    for (const [user, meeting] of [
      [leaver, leaversMeeting],
      [removed, removedsMeeting],
      [owner, ownersMeeting],
    ] as const) {
      await withAudio(meeting.id);
      expect((await shareWith(user, meeting.id, team.id)).status).toBe(200);
      expect(await readStatuses(reader, meeting.id)).toEqual(CAN_READ);
    }

    expect((await api(leaver, 'DELETE', `/api/v1/teams/${team.id}/members/${leaver.id}`)).status).toBe(200);
    expect((await api(owner, 'DELETE', `/api/v1/teams/${team.id}/members/${removed.id}`)).status).toBe(200);
    await t.deps.jobs.idle(); // the meetings feature acts on the removals' events
    for (const meeting of [leaversMeeting, removedsMeeting]) {
      expect(await readStatuses(reader, meeting.id)).toEqual(CANNOT_READ);
      expect(await readStatuses(owner, meeting.id)).toEqual(CANNOT_READ);
      expect((await api(reader, 'GET', `/api/v1/meetings?q=${encodeURIComponent('Weekly Team Standup')}`)).raw).not.toContain(meeting.id);
    }
    // Their owners keep them, private now.
    for (const [user, meeting] of [
      [leaver, leaversMeeting],
      [removed, removedsMeeting],
    ] as const) {
      expect(await readStatuses(user, meeting.id)).toEqual(CAN_READ);
      expect(MeetingDetailSchema.parse((await api(user, 'GET', `/api/v1/meetings/${meeting.id}`)).body).teamId).toBeNull();
    }
    // What the owner who stays shared is still the team's.
    expect(await readStatuses(reader, ownersMeeting.id)).toEqual(CAN_READ);
  });
});

describe('invitation email budgets (#31 R3-8)', () => {
  let limited: TestApp;
  beforeAll(async () => {
    // Auth's defaults (60 s between emails to an address, request limits on), and a small installation budget.
    limited = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_EMAIL_RATE_LIMIT_PER_HOUR: '25' } });
  });
  afterAll(() => limited.close());

  const as = async (name: string) => {
    const { token } = await signUpUser(limited.app, 'budget', { fullName: name });
    return { authorization: `Bearer ${token}` };
  };
  const post = (headers: Record<string, string>, url: string, payload: object) => limited.app.inject({ method: 'POST', url, headers, payload });
  const teamOf = async (headers: Record<string, string>, name: string) => TeamSchema.parse((await post(headers, '/api/v1/teams', { name })).json()).id;
  const inviteTo = (headers: Record<string, string>, teamId: string, email: string) => post(headers, `/api/v1/teams/${teamId}/invitations`, { email });
  const openOf = async (headers: Record<string, string>, teamId: string) =>
    InvitationListSchema.parse((await limited.app.inject({ method: 'GET', url: `/api/v1/teams/${teamId}/invitations`, headers })).json()).items;

  it('the subject carries nothing the inviter wrote; the body names them, escaped', async () => {
    const { token } = await signUpUser(limited.app, 'budget', { fullName: 'URGENT: reset your password at evil.example' });
    const headers = { authorization: `Bearer ${token}` };
    const team = await teamOf(headers, '<b>Payroll</b> — verify your account');
    expect((await inviteTo(headers, team, 'subject-check@example.com')).statusCode).toBe(201);
    await limited.deps.jobs.idle();
    // The outbox keeps the HTML part too.
    const mail = outbox(limited.config.dataDir, 'subject-check@example.com').at(-1) as OutboxMessage & { html: string };
    expect(mail.subject).toBe(INVITATION_EMAIL_SUBJECT);
    expect(mail.text).toContain('URGENT: reset your password at evil.example invited you to join the team “<b>Payroll</b> — verify your account”');
    expect(mail.html).toContain('&lt;b&gt;Payroll&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>Payroll</b>');
  });

  it('one address hears once a minute, whoever invites it, and the refused invitation is not made', async () => {
    const [first, second] = await Promise.all([as('First Inviter'), as('Second Inviter')]);
    const [teamA, teamB] = await Promise.all([teamOf(first, 'Alpha'), teamOf(second, 'Beta')]);
    expect((await inviteTo(first, teamA, 'target@example.com')).statusCode).toBe(201);
    for (const [headers, teamId] of [
      [first, teamA],
      [second, teamB],
    ] as const) {
      const again = await inviteTo(headers, teamId, 'TARGET@example.com');
      expect(again.statusCode).toBe(429);
      expect(again.json()).toMatchObject({
        error: {
          code: 'RATE_LIMITED',
          message: expect.stringMatching(
            /^Parley has emailed target@example\.com too often lately\. Try again in \d+ seconds, or invite with a link instead\.$/,
          ),
        },
      });
    }
    // The first invitation stands (not replaced by the refused one), and the other team holds none.
    expect((await openOf(first, teamA)).map((i) => i.email)).toEqual(['target@example.com']);
    expect(await openOf(second, teamB)).toEqual([]);
    // A link to copy needs no email.
    expect((await post(second, `/api/v1/teams/${teamB}/invitations`, {})).statusCode).toBe(201);
  });

  it(`one person sends at most ${INVITATION_EMAILS_PER_INVITER_PER_HOUR} invitation emails an hour, and the installation its hourly budget`, async () => {
    const spammer = await as('Sally Spammer');
    const team = await teamOf(spammer, 'Flood');
    for (let i = 0; i < INVITATION_EMAILS_PER_INVITER_PER_HOUR; i += 1) expect((await inviteTo(spammer, team, `flood-${i}@example.com`)).statusCode).toBe(201);
    const over = await inviteTo(spammer, team, 'flood-over@example.com');
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({
      error: {
        message: expect.stringMatching(
          new RegExp(
            `^You have sent ${INVITATION_EMAILS_PER_INVITER_PER_HOUR} invitation emails in the last hour, the most one person may\\. Try again in \\d+ minutes, or invite with a link instead\\.$`,
          ),
        ),
      },
    });
    expect((await openOf(spammer, team)).map((i) => i.email)).not.toContain('flood-over@example.com');

    // 25 an hour for the installation: 2 in the tests above, 20 here; 3 more from someone else.
    const other = await as('Otis Other');
    const otherTeam = await teamOf(other, 'Budget');
    for (let i = 0; i < 3; i += 1) expect((await inviteTo(other, otherTeam, `budget-${i}@example.com`)).statusCode).toBe(201);
    const spent = await inviteTo(other, otherTeam, 'budget-over@example.com');
    expect(spent.statusCode).toBe(429);
    expect(spent.json()).toMatchObject({
      error: {
        message: expect.stringMatching(
          /^This server has sent all the invitation emails it may this hour\. Try again in \d+ minutes, or invite with a link instead\.$/,
        ),
      },
    });
    await limited.deps.jobs.idle();
    expect(outbox(limited.config.dataDir, 'budget-over@example.com')).toEqual([]);
    expect(outbox(limited.config.dataDir, 'flood-over@example.com')).toEqual([]);
  });

  it(`an account owns at most ${MAX_OWNED_TEAMS} teams`, async () => {
    const founder = await as('Fred Founder');
    for (let i = 0; i < MAX_OWNED_TEAMS; i += 1) expect((await post(founder, '/api/v1/teams', { name: `Team ${i}` })).statusCode).toBe(201);
    const over = await post(founder, '/api/v1/teams', { name: 'One too many' });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({
      error: { message: `You already own ${MAX_OWNED_TEAMS} teams, the most one account may. Delete one, or hand it over, before creating another.` },
    });
  });
});

describe('a deleted person leaves no titles or addresses in their teams’ activity (#31 R3-15)', () => {
  for (const how of ['Delete All Data', 'Delete Account'] as const) {
    it(`${how}: the activity keeps nobody’s meeting titles or invited addresses of theirs`, async () => {
      const owner = await newUser('Ada Owner');
      const person = await newUser('Pia Leaving');
      const team = await createTeam(owner, `Forgetting ${how}`);
      await join(owner, team.id, person, 'admin');
      const meeting = await meetingTitled(person, 'Weekly Team Standup');
      const title = `Pia’s confidential plans ${crypto.randomUUID()}`;
      expect((await api(person, 'PATCH', `/api/v1/meetings/${meeting.id}`, { title })).status).toBe(200);
      expect((await shareWith(person, meeting.id, team.id)).status).toBe(200);
      expect((await api(owner, 'GET', `/api/v1/meetings/${meeting.id}/export?format=md`)).status).toBe(200);
      expect((await api(person, 'POST', `/api/v1/meetings/${meeting.id}/share`)).status).toBe(201);
      const contact = `pias-contact-${crypto.randomUUID()}@example.com`;
      await invite(person, team.id, { email: contact });
      await t.deps.jobs.idle();
      const before = JSON.stringify((await api(owner, 'GET', `/api/v1/teams/${team.id}/activity`)).body);
      expect(before).toContain(title);
      expect(before).toContain(contact);
      expect(before).toContain(person.email);

      const deleted =
        how === 'Delete All Data'
          ? await api(person, 'DELETE', '/api/v1/me/data', { email: person.email })
          : await api(person, 'DELETE', '/api/v1/me', { email: person.email, password: 'secret12' });
      expect(deleted.status).toBe(200);
      const items = TeamActivityListSchema.parse((await api(owner, 'GET', `/api/v1/teams/${team.id}/activity`)).body).items;
      const after = JSON.stringify(items);
      expect(after).not.toContain(title);
      expect(after).not.toContain(contact);
      expect(after).not.toContain(person.email);
      // What others did that named nothing of theirs stays.
      expect(items.map((a) => a.kind)).toContain('member_joined');
    });
  }
});
