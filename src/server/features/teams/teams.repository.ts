import { inTransaction } from '#server/db/transaction.ts';
import crypto from 'node:crypto';
import type { InvitationEmailStatus, InvitedRole, TeamActivityKind, TeamRole } from '#shared/contracts/teams.ts';
import type { Db } from '#server/db/create-db.ts';
import { hashOpaqueToken } from '#server/lib/opaque-token.ts';
import type { TeamActivityTable, TeamInvitationsTable } from './teams.table.ts';

/**
 * The teams tables. Every read that answers a person goes through their membership (the service
 * checks it first); invitations are found by the SHA-256 of their token only.
 */

export type TeamRow = { id: string; name: string; role: TeamRole; memberCount: number; createdAt: string };

const teamsWithRole = (db: Db) =>
  db
    .selectFrom('team_members as me')
    .innerJoin('teams as t', 't.id', 'me.team_id')
    .select((eb) => [
      't.id',
      't.name',
      'me.role',
      't.created_at',
      eb.selectFrom('team_members as all').whereRef('all.team_id', '=', 't.id').select(eb.fn.countAll<number | string>().as('n')).as('member_count'),
    ]);

const presentTeam = (row: { id: string; name: string; role: TeamRole; created_at: string; member_count: number | string | null }): TeamRow => ({
  id: row.id,
  name: row.name,
  role: row.role,
  memberCount: Number(row.member_count ?? 0),
  createdAt: row.created_at,
});

export async function insertTeam(db: Db, input: { name: string; ownerId: string; now: string }): Promise<string> {
  const id = crypto.randomUUID();
  await inTransaction(db, async (trx) => {
    await trx.insertInto('teams').values({ id, name: input.name, created_by: input.ownerId, created_at: input.now, updated_at: input.now }).execute();
    await trx.insertInto('team_members').values({ team_id: id, user_id: input.ownerId, role: 'owner', joined_at: input.now }).execute();
  });
  return id;
}

export async function teamsOf(db: Db, userId: string): Promise<TeamRow[]> {
  const rows = await teamsWithRole(db).where('me.user_id', '=', userId).orderBy('t.created_at').orderBy('t.id').execute();
  return rows.map(presentTeam);
}

/** The team as one of its members sees it; undefined for anyone else. */
export async function teamOf(db: Db, userId: string, teamId: string): Promise<TeamRow | undefined> {
  const row = await teamsWithRole(db).where('me.user_id', '=', userId).where('t.id', '=', teamId).executeTakeFirst();
  return row && presentTeam(row);
}

export async function teamIdsOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('team_members').select('team_id').where('user_id', '=', userId).execute();
  return rows.map((r) => r.team_id);
}

export async function membersOf(db: Db, teamId: string): Promise<{ userId: string; role: TeamRole; joinedAt: string }[]> {
  const rows = await db
    .selectFrom('team_members')
    .select(['user_id', 'role', 'joined_at'])
    .where('team_id', '=', teamId)
    .orderBy('joined_at')
    .orderBy('user_id')
    .execute();
  return rows.map((r) => ({ userId: r.user_id, role: r.role, joinedAt: r.joined_at }));
}

export async function roleOf(db: Db, teamId: string, userId: string): Promise<TeamRole | undefined> {
  const row = await db.selectFrom('team_members').select('role').where('team_id', '=', teamId).where('user_id', '=', userId).executeTakeFirst();
  return row?.role;
}

export async function renameTeam(db: Db, teamId: string, name: string, now: string): Promise<void> {
  await db.updateTable('teams').set({ name, updated_at: now }).where('id', '=', teamId).execute();
}

/** The team with its memberships, invitations and activity (cascades); its meetings become private again (set null). */
export async function deleteTeam(db: Db, teamId: string): Promise<void> {
  await db.deleteFrom('teams').where('id', '=', teamId).execute();
}

/** Changes the role of someone who is not the owner; answers whether a row changed. */
export async function setRole(db: Db, teamId: string, userId: string, role: Exclude<TeamRole, 'owner'>): Promise<boolean> {
  const result = await db
    .updateTable('team_members')
    .set({ role })
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .where('role', '!=', 'owner')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Makes `toId` the owner and the owner `fromId` an admin, in one transaction; false when either is not what it should be. */
export async function transferOwnership(db: Db, teamId: string, fromId: string, toId: string): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const demoted = await trx
      .updateTable('team_members')
      .set({ role: 'admin' })
      .where('team_id', '=', teamId)
      .where('user_id', '=', fromId)
      .where('role', '=', 'owner')
      .executeTakeFirst();
    if (Number(demoted.numUpdatedRows) === 0) return false;
    const promoted = await trx.updateTable('team_members').set({ role: 'owner' }).where('team_id', '=', teamId).where('user_id', '=', toId).executeTakeFirst();
    if (Number(promoted.numUpdatedRows) === 0) throw new Error('The new owner left the team during the transfer');
    return true;
  });
}

/** Removes a member who is not the owner (an owner transfers first); answers whether they were removed. */
export async function removeMember(db: Db, teamId: string, userId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('team_members')
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .where('role', '!=', 'owner')
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export type InvitationRow = TeamInvitationsTable;

export async function insertInvitation(
  db: Db,
  input: { teamId: string; email: string | null; role: InvitedRole; token: string; invitedBy: string; now: Date; validMs: number },
): Promise<InvitationRow> {
  const row: InvitationRow = {
    id: crypto.randomUUID(),
    team_id: input.teamId,
    email: input.email,
    role: input.role,
    token_hash: hashOpaqueToken(input.token),
    invited_by: input.invitedBy,
    created_at: input.now.toISOString(),
    expires_at: new Date(input.now.getTime() + input.validMs).toISOString(),
    revoked_at: null,
    accepted_at: null,
    accepted_by: null,
    email_status: input.email ? 'sending' : null,
    email_error: null,
  };
  await db.insertInto('team_invitations').values(row).execute();
  return row;
}

export async function invitationById(db: Db, id: string): Promise<InvitationRow | undefined> {
  return db.selectFrom('team_invitations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Where an emailed invitation's email is, and the words the inviter reads when it failed. */
export async function setInvitationEmail(db: Db, id: string, status: InvitationEmailStatus, error: string | null): Promise<void> {
  await db.updateTable('team_invitations').set({ email_status: status, email_error: error }).where('id', '=', id).execute();
}

/** Invitations still open: neither accepted, revoked nor expired. */
export async function openInvitations(db: Db, teamId: string, now: Date): Promise<InvitationRow[]> {
  return db
    .selectFrom('team_invitations')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

/** Revokes the open invitations of this team to an address (a new one replaces them). */
export async function revokeInvitationsTo(db: Db, teamId: string, email: string, now: Date): Promise<void> {
  await db
    .updateTable('team_invitations')
    .set({ revoked_at: now.toISOString() })
    .where('team_id', '=', teamId)
    .where('email', '=', email)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .execute();
}

/**
 * Revokes the open invitations a person made: in one team (they left it, were removed or are no
 * longer an admin), or in every team (their account is being deleted).
 */
export async function revokeInvitationsBy(db: Db, invitedBy: string, teamId: string | null, now: Date): Promise<void> {
  let update = db
    .updateTable('team_invitations')
    .set({ revoked_at: now.toISOString() })
    .where('invited_by', '=', invitedBy)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null);
  if (teamId !== null) update = update.where('team_id', '=', teamId);
  await update.execute();
}

/** Teams the person owns (a cap on how many one account may create). */
export async function ownedTeamCount(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('team_members')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('role', '=', 'owner')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Revokes an open invitation of this team; false when there is none (another team's id, already used or revoked). */
export async function revokeInvitation(db: Db, teamId: string, invitationId: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('team_invitations')
    .set({ revoked_at: now.toISOString() })
    .where('id', '=', invitationId)
    .where('team_id', '=', teamId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function invitationOfToken(db: Db, token: string): Promise<(InvitationRow & { team_name: string }) | undefined> {
  return db
    .selectFrom('team_invitations as i')
    .innerJoin('teams as t', 't.id', 'i.team_id')
    .selectAll('i')
    .select('t.name as team_name')
    .where('i.token_hash', '=', hashOpaqueToken(token))
    .executeTakeFirst();
}

/**
 * Uses up an open invitation and makes the person a member with its role, in one transaction: the
 * conditional UPDATE lets only one of two accepts racing for the same invitation through, and only
 * while its inviter is still in the team as an owner or admin (their removal, demotion or deleted
 * account ends their invitations even in a race with it). Invited roles are admin or member, so an
 * inviter who may invite at all holds at least the role they give.
 */
export async function acceptInvitation(db: Db, invitation: InvitationRow, userId: string, now: Date): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const taken = await trx
      .updateTable('team_invitations')
      .set({ accepted_at: now.toISOString(), accepted_by: userId })
      .where('id', '=', invitation.id)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now.toISOString())
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('team_members as inviter')
            .select('inviter.user_id')
            .whereRef('inviter.team_id', '=', 'team_invitations.team_id')
            .whereRef('inviter.user_id', '=', 'team_invitations.invited_by')
            .where('inviter.role', 'in', ['owner', 'admin']),
        ),
      )
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 0) return false;
    await trx
      .insertInto('team_members')
      .values({ team_id: invitation.team_id, user_id: userId, role: invitation.role, joined_at: now.toISOString() })
      .execute();
    return true;
  });
}

export async function insertActivity(
  db: Db,
  input: {
    id?: string | undefined;
    teamId: string;
    actorId: string;
    kind: TeamActivityKind;
    meetingId?: string;
    meetingTitle?: string;
    subject?: string | null;
    now: string;
  },
): Promise<void> {
  await db
    .insertInto('team_activity')
    .values({
      id: input.id ?? crypto.randomUUID(),
      team_id: input.teamId,
      actor_id: input.actorId,
      kind: input.kind,
      meeting_id: input.meetingId ?? null,
      meeting_title: input.meetingTitle ?? null,
      subject: input.subject ?? null,
      created_at: input.now,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

export async function activityOf(db: Db, teamId: string, limit: number): Promise<TeamActivityTable[]> {
  return db.selectFrom('team_activity').selectAll().where('team_id', '=', teamId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** Notes that a person's tab is in use now; answers when it last said so before (null: never). */
export async function touchPresence(db: Db, userId: string, now: string): Promise<string | null> {
  return inTransaction(db, async (trx) => {
    const before = await trx.selectFrom('team_presence').select('seen_at').where('user_id', '=', userId).executeTakeFirst();
    await trx
      .insertInto('team_presence')
      .values({ user_id: userId, seen_at: now })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ seen_at: now }))
      .execute();
    return before?.seen_at ?? null;
  });
}

/** When each of these people's tabs last said they were in use. */
export async function presenceOf(db: Db, userIds: readonly string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('team_presence')
    .select(['user_id', 'seen_at'])
    .where('user_id', 'in', [...new Set(userIds)])
    .execute();
  return new Map(rows.map((r) => [r.user_id, r.seen_at]));
}

/** The kinds of activity about a meeting that only its owner raises (recorded, imported or shared into the team, insights shared by link). */
const OWNERS_MEETING_KINDS = ['meeting_recorded', 'meeting_imported', 'meeting_shared', 'insights_shared'] as const;

/**
 * Takes a person's data out of their teams' activity (Delete All Data, Delete Account): every entry
 * about their meetings, by anyone (titles included), and the addresses they invited; entries where
 * someone invited their own address no longer name it. Their meetings are found through the entries
 * they raised as owner: a meeting reaches a team's activity only once its owner shared or recorded it there.
 */
export async function forgetActivityOf(db: Db, userId: string, email: string | null): Promise<void> {
  await inTransaction(db, async (trx) => {
    const theirMeetings = await trx
      .selectFrom('team_activity')
      .select('meeting_id')
      .distinct()
      .where('actor_id', '=', userId)
      .where('kind', 'in', [...OWNERS_MEETING_KINDS])
      .where('meeting_id', 'is not', null)
      .execute();
    const meetingIds = theirMeetings.flatMap((r) => (r.meeting_id ? [r.meeting_id] : []));
    for (let i = 0; i < meetingIds.length; i += 500) {
      await trx
        .deleteFrom('team_activity')
        .where('meeting_id', 'in', meetingIds.slice(i, i + 500))
        .execute();
    }
    await trx.deleteFrom('team_activity').where('actor_id', '=', userId).where('kind', '=', 'member_invited').execute();
    if (email)
      await trx.updateTable('team_activity').set({ subject: null }).where('kind', '=', 'member_invited').where('subject', '=', email.toLowerCase()).execute();
  });
}
