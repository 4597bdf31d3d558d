import {
  ACTIVE_WITHIN_MINUTES,
  AVAILABILITY_STATUS,
  INVITATION_VALID_DAYS,
  type Availability,
  type CreatedInvitation,
  type Invitation,
  type InvitationPreview,
  type InvitedRole,
  type Team,
  type TeamActivity,
  type TeamActivityKind,
  type TeamMember,
  type TeamRole,
} from '#shared/contracts/teams.ts';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { DomainEvent } from '#shared/contracts/events.ts';
import type { Db } from '#server/db/create-db.ts';
import type { EventRecorder } from '#server/events/domain-events.ts';
import { bestEffort } from '#server/lib/best-effort.ts';
import type { RateLimiters } from '#server/lib/rate-limit.ts';
import type { SecretBox } from '#server/lib/secret-box.ts';
import { AppError, notFound } from '#server/lib/app-error.ts';
import type { RealtimeHub } from '#server/lib/realtime/realtime-hub.ts';
import { newOpaqueToken } from '#server/lib/opaque-token.ts';
import type { MeetingsService } from '../meetings/meetings.service.ts';
import { invitationEmail, type OutgoingEmail } from './invitation-email.ts';
import {
  acceptInvitation,
  activityOf,
  deleteTeam,
  forgetActivityOf,
  insertActivity,
  insertInvitation,
  insertTeam,
  invitationById,
  invitationOfToken,
  setInvitationEmail,
  membersOf,
  openInvitations,
  ownedTeamCount,
  presenceOf,
  removeMember,
  renameTeam,
  revokeInvitation,
  revokeInvitationsBy,
  revokeInvitationsTo,
  roleOf,
  setRole,
  teamIdsOf,
  teamOf,
  teamsOf,
  touchPresence,
  transferOwnership,
  type InvitationRow,
} from './teams.repository.ts';

/** A person as teammates see them (auth's profiles, given in deps.ts). */
export type PersonProfile = { id: string; name: string; email: string; lastActiveAt: string | null; avatarUrl: string | null };

type TeamsDeps = {
  db: Db;
  /** Names, emails and last activity of people (auth's users and sessions). */
  profilesOf: (userIds: readonly string[]) => Promise<Map<string, PersonProfile>>;
  /** Meeting counts and who is recording, for the member cards; which meetings are still shared, for the activity. */
  meetings: Pick<MeetingsService, 'teamMemberCounts' | 'peopleRecording' | 'sharedWithTeam'>;
  sendEmail: (email: OutgoingEmail) => Promise<void>;
  /** Changes and the domain events they raise commit together (an invitation's email leaves from its event). */
  events: EventRecorder;
  /** Seals an invitation's token into its event (only its hash is kept with the invitation) and opens it to send the email. */
  secrets: Pick<SecretBox, 'seal' | 'open'>;
  /** PUBLIC_URL: invitation links point at `<publicUrl>/invite/<token>`. */
  publicUrl: string;
  now: () => Date;
  /** `team.changed` to the members of a team whose /team page shows something new. */
  realtime?: Pick<RealtimeHub, 'publish'>;
  /** A notice that could not be sent is logged and counted (a named best effort). */
  log: Logger;
  /** People who left a team (removed, or it was deleted): the meetings feature ends their downloads of its meetings. */
  membersLeft?: (userIds: readonly string[]) => Promise<void>;
  /** The server's rate-limit port: invitation emails are counted there, as auth's emails are. */
  rateLimiters: RateLimiters;
  /** Auth's email settings, applied to invitation emails too (config.auth). */
  emailLimits: InvitationEmailLimits;
};

/**
 * The budgets auth's emails have, for invitation emails: one email to an address per
 * AUTH_EMAIL_FREQUENCY seconds (0: no wait) and AUTH_EMAIL_RATE_LIMIT_PER_HOUR from the whole
 * installation; with AUTH_RATE_LIMITS on, also 10 an hour to one address (auth's per-address
 * bucket) and INVITATION_EMAILS_PER_INVITER_PER_HOUR from one person. The counts are the
 * invitations' own, so a flood of invitations never holds back anyone's sign-in or recovery email.
 */
type InvitationEmailLimits = { frequencySeconds: number; perHour: number; enabled: boolean };

/** How many invitation emails one person may send in an hour (links to copy are not emailed and not counted). */
export const INVITATION_EMAILS_PER_INVITER_PER_HOUR = 20;
/** As auth's sign-ups, recoveries and magic links to one address. */
const INVITATION_EMAILS_PER_ADDRESS_PER_HOUR = 10;
/** Teams one account may own: each holds up to MAX_OPEN_INVITATIONS, so this bounds what one person can send. */
export const MAX_OWNED_TEAMS = 20;

const INVITATION_VALID_MS = INVITATION_VALID_DAYS * 24 * 60 * 60 * 1000;
/** What the inviter reads on an invitation whose email did not go out (the mail server's answer is in the server's log). */
const INVITATION_EMAIL_RETRYING = 'The email has not been sent yet: the mail server did not take it. Parley is trying again.';
const INVITATION_EMAIL_FAILED = 'The invitation email could not be sent. Check the server’s email settings, or invite with a link instead.';
/** Enough for any real team; stops a script from using the server to send invitation emails without end. */
export const MAX_OPEN_INVITATIONS = 50;
const RANK: Record<TeamRole, number> = { owner: 3, admin: 2, member: 1 };
const managesMembers = (role: TeamRole) => RANK[role] >= RANK.admin;

/**
 * Teams: create, rename and delete; members and their roles; invitations by email or link; the
 * team's activity. Every function takes the caller's id and checks their role first: a team they do
 * not belong to is a 404, exactly as one that does not exist; a member asking for what only an owner
 * or admin may do is a 403. Refusals are AppErrors with the sentence the person reads (only routes
 * call these functions). The meetings feature asks who belongs to which team through the port in
 * deps.ts (`teamIdsOf`, `memberIdsOf`, `recordActivity`).
 */
export type TeamsService = ReturnType<typeof createTeamsService>;

export function createTeamsService(deps: TeamsDeps) {
  const { db } = deps;
  const nowIso = () => deps.now().toISOString();
  const limits = deps.emailLimits;
  const emailLimiters = {
    perInviter: deps.rateLimiters.limiter({ keyPrefix: 'invitationEmailsPerInviter', points: INVITATION_EMAILS_PER_INVITER_PER_HOUR, duration: 3600 }),
    frequency:
      limits.frequencySeconds > 0
        ? deps.rateLimiters.limiter({ keyPrefix: 'invitationEmailFrequency', points: 1, duration: limits.frequencySeconds })
        : undefined,
    perAddress: deps.rateLimiters.limiter({ keyPrefix: 'invitationEmailsPerAddress', points: INVITATION_EMAILS_PER_ADDRESS_PER_HOUR, duration: 3600 }),
    installation: deps.rateLimiters.limiter({ keyPrefix: 'invitationEmails', points: limits.perHour, duration: 3600 }),
  };
  const later = (ms: number) => (ms < 90_000 ? `${Math.max(1, Math.ceil(ms / 1000))} seconds` : `${Math.ceil(ms / 60_000)} minutes`);
  /**
   * Counts one invitation email from `userId` to `email`, or refuses it (429) with when to try again.
   * The inviter's own count goes first, so their refusals spend nothing of the address's budget.
   */
  const countInvitationEmail = async (userId: string, email: string): Promise<void> => {
    const orLink = 'or invite with a link instead.';
    if (limits.enabled) {
      const mine = await emailLimiters.perInviter.consume(userId);
      if (!mine.allowed)
        throw new AppError(
          'RATE_LIMITED',
          `You have sent ${INVITATION_EMAILS_PER_INVITER_PER_HOUR} invitation emails in the last hour, the most one person may. Try again in ${later(mine.msBeforeNext)}, ${orLink}`,
        );
    }
    const tooMany = (ms: number) => new AppError('RATE_LIMITED', `Parley has emailed ${email} too often lately. Try again in ${later(ms)}, ${orLink}`);
    if (emailLimiters.frequency) {
      const recent = await emailLimiters.frequency.consume(email);
      if (!recent.allowed) throw tooMany(recent.msBeforeNext);
    }
    if (limits.enabled) {
      const address = await emailLimiters.perAddress.consume(email);
      if (!address.allowed) throw tooMany(address.msBeforeNext);
    }
    const installation = await emailLimiters.installation.consume('installation');
    if (!installation.allowed)
      throw new AppError(
        'RATE_LIMITED',
        `This server has sent all the invitation emails it may this hour. Try again in ${later(installation.msBeforeNext)}, ${orLink}`,
      );
  };

  /** The caller's role in the team; a team they are not in does not exist for them. */
  const roleIn = async (userId: string, teamId: string): Promise<TeamRole> => {
    const role = await roleOf(db, teamId, userId);
    if (!role) throw notFound('Team');
    return role;
  };
  const requireManager = async (userId: string, teamId: string): Promise<TeamRole> => {
    const role = await roleIn(userId, teamId);
    if (!managesMembers(role)) throw new AppError('FORBIDDEN', 'Only the team’s owner and admins can do this.');
    return role;
  };
  const requireOwner = async (userId: string, teamId: string): Promise<void> => {
    if ((await roleIn(userId, teamId)) !== 'owner') throw new AppError('FORBIDDEN', 'Only the team’s owner can do this.');
  };
  const teamFor = async (userId: string, teamId: string): Promise<Team> => {
    const team = await teamOf(db, userId, teamId);
    if (!team) throw notFound('Team');
    return team;
  };
  const record = (
    teamId: string,
    actorId: string,
    kind: TeamActivityKind,
    extra: { id?: string | undefined; meetingId?: string; meetingTitle?: string; subject?: string | null } = {},
  ) => insertActivity(db, { teamId, actorId, kind, ...extra, now: nowIso() });
  /**
   * Tells the team's members (and `also`: someone who just left it) that what /team shows changed.
   * Who hears it is read when it is sent, so a removed member hears no more after their removal. A
   * lookup that fails drops the one notice (logged and counted): the pages read the right state on their next request.
   */
  const changed = (teamId: string, also: readonly string[] = []) => {
    const realtime = deps.realtime;
    if (!realtime) return;
    void bestEffort(
      'team-realtime',
      membersOf(db, teamId).then((rows) => {
        for (const userId of new Set([...rows.map((r) => r.userId), ...also])) realtime.publish(userId, { type: 'team.changed', teamId });
      }),
      deps.log,
      { teamId },
    );
  };
  /** The person's availability changed: every team they are in hears of it. */
  const availabilityChanged = (userId: string) => {
    if (!deps.realtime) return;
    void bestEffort(
      'team-realtime',
      teamIdsOf(db, userId).then((teamIds) => {
        for (const teamId of teamIds) changed(teamId);
      }),
      deps.log,
    );
  };
  const nameOf = async (userId: string) => (await deps.profilesOf([userId])).get(userId)?.name ?? 'Someone';
  const invitationUrl = (token: string) => `${deps.publicUrl.replace(/\/+$/, '')}/invite/${token}`;

  const presentInvitation = (row: InvitationRow, inviters: Map<string, PersonProfile>): Invitation => ({
    id: row.id,
    email: row.email,
    emailStatus: row.email_status,
    emailError: row.email_error,
    role: row.role,
    invitedBy: { id: row.invited_by, name: (row.invited_by && inviters.get(row.invited_by)?.name) ?? 'Someone' },
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  });

  const members = async (userId: string, teamId: string): Promise<TeamMember[]> => {
    await roleIn(userId, teamId);
    const rows = await membersOf(db, teamId);
    const ids = rows.map((r) => r.userId);
    const [profiles, recording, presence] = await Promise.all([deps.profilesOf(ids), deps.meetings.peopleRecording(ids), presenceOf(db, ids)]);
    const counts = await deps.meetings.teamMemberCounts(
      teamId,
      rows.map((r) => ({ userId: r.userId, name: profiles.get(r.userId)?.name ?? '' })),
    );
    const activeSince = deps.now().getTime() - ACTIVE_WITHIN_MINUTES * 60_000;
    return rows.map((row) => {
      const profile = profiles.get(row.userId);
      // The latest of a sign-in or token refresh (auth's) and an open tab's heartbeat (presence).
      const lastActiveAt =
        [profile?.lastActiveAt ?? null, presence.get(row.userId) ?? null]
          .filter((v): v is string => v !== null)
          .sort()
          .at(-1) ?? null;
      const availability: Availability = recording.has(row.userId)
        ? 'busy'
        : lastActiveAt !== null && Date.parse(lastActiveAt) >= activeSince
          ? 'active'
          : 'away';
      const count = counts.get(row.userId);
      return {
        userId: row.userId,
        name: profile?.name ?? '',
        email: profile?.email ?? '',
        avatarUrl: profile?.avatarUrl ?? null,
        role: row.role,
        availability,
        status: AVAILABILITY_STATUS[availability],
        lastActiveAt,
        joinedAt: row.joinedAt,
        meetingsRecorded: count?.recorded ?? 0,
        meetingsAttended: count?.attended ?? 0,
      };
    });
  };
  const memberOf = async (userId: string, teamId: string, memberId: string): Promise<TeamMember> => {
    const member = (await members(userId, teamId)).find((m) => m.userId === memberId);
    if (!member) throw notFound('Member');
    return member;
  };

  /** The open invitation behind a token, or why it cannot be used (404 unknown, 410 expired, revoked or used). */
  const openInvitation = async (token: string) => {
    const invitation = await invitationOfToken(db, token);
    if (!invitation) throw new AppError('NOT_FOUND', 'This invitation does not exist. Check the link, or ask for a new invitation.');
    if (invitation.accepted_at) throw new AppError('GONE', 'This invitation has already been used. Ask for a new invitation.');
    if (invitation.revoked_at) throw new AppError('GONE', 'This invitation has been revoked. Ask for a new invitation.');
    if (Date.parse(invitation.expires_at) <= deps.now().getTime()) throw new AppError('GONE', 'This invitation has expired. Ask for a new invitation.');
    // An invitation speaks for its inviter only while they may still invite to the team.
    const inviterRole = invitation.invited_by ? await roleOf(db, invitation.team_id, invitation.invited_by) : undefined;
    if (!inviterRole || !managesMembers(inviterRole))
      throw new AppError('GONE', 'This invitation no longer works: the person who sent it can no longer invite to this team. Ask for a new invitation.');
    return invitation;
  };

  return {
    list: (userId: string): Promise<Team[]> => teamsOf(db, userId),
    /**
     * Before an account is deleted: a team it is the only owner of, with other members, would be
     * left without anyone who can manage it, so the person is told to hand it over or delete it first.
     */
    assertCanLeaveAllTeams: async (userId: string): Promise<void> => {
      for (const team of await teamsOf(db, userId)) {
        if (team.role !== 'owner' || team.memberCount < 2) continue;
        const owners = (await membersOf(db, team.id)).filter((m) => m.role === 'owner');
        if (owners.length > 1) continue;
        throw new AppError('CONFLICT', `You own the team “${team.name}”. Make another member its owner, or delete the team, before you delete your account.`);
      }
    },
    /** A new team with its creator as owner. */
    create: async (userId: string, name: string): Promise<Team> => {
      if ((await ownedTeamCount(db, userId)) >= MAX_OWNED_TEAMS) {
        throw new AppError(
          'CONFLICT',
          `You already own ${MAX_OWNED_TEAMS} teams, the most one account may. Delete one, or hand it over, before creating another.`,
        );
      }
      const teamId = await deps.events.transaction(async (trx, raise) => {
        const id = await insertTeam(trx, { name, ownerId: userId, now: nowIso() });
        raise({ type: 'team.member_added', actorId: userId, ownerId: null, teamId: id, subject: { type: 'team', id }, payload: { userId, role: 'owner' } });
        return id;
      });
      return teamFor(userId, teamId);
    },
    rename: async (userId: string, teamId: string, name: string): Promise<Team> => {
      await requireManager(userId, teamId);
      await renameTeam(db, teamId, name, nowIso());
      changed(teamId);
      return teamFor(userId, teamId);
    },
    /** The owner deletes the team: its members lose it at once and its meetings become private to their owners. */
    remove: async (userId: string, teamId: string): Promise<void> => {
      await requireOwner(userId, teamId);
      const before = (await membersOf(db, teamId)).map((m) => m.userId);
      await deps.events.transaction(async (trx, raise) => {
        await deleteTeam(trx, teamId);
        raise({ type: 'team.deleted', actorId: userId, ownerId: null, teamId, subject: { type: 'team', id: teamId }, payload: {} });
      });
      await deps.membersLeft?.(before);
      changed(teamId, before);
    },

    members,
    /**
     * A new role for a member. Owners and admins change roles below owner (an admin never the
     * owner's); `owner` is a transfer, the owner's alone, which leaves them an admin.
     */
    updateMember: async (userId: string, teamId: string, memberId: string, role: TeamRole): Promise<TeamMember> => {
      const callerRole = await requireManager(userId, teamId);
      const current = await roleOf(db, teamId, memberId);
      if (!current) throw notFound('Member');
      if (role === 'owner') {
        if (callerRole !== 'owner') throw new AppError('FORBIDDEN', 'Only the team’s owner can transfer ownership.');
        if (memberId !== userId && !(await transferOwnership(db, teamId, userId, memberId)))
          throw new AppError('CONFLICT', 'Ownership changed meanwhile. Reload and try again.');
        changed(teamId);
        return memberOf(userId, teamId, memberId);
      }
      if (current === 'owner') {
        throw new AppError(
          callerRole === 'owner' ? 'CONFLICT' : 'FORBIDDEN',
          callerRole === 'owner' ? 'A team needs its owner: transfer ownership to another member first.' : 'Only the owner can change the owner’s role.',
        );
      }
      // No longer an admin: the invitations they made stop working with their right to invite.
      await deps.events.transaction(async (trx, raise) => {
        if (!(await setRole(trx, teamId, memberId, role))) throw notFound('Member');
        if (!managesMembers(role)) await revokeInvitationsBy(trx, memberId, teamId, deps.now());
        if (role !== current) {
          raise({
            type: 'team.role_changed',
            actorId: userId,
            ownerId: null,
            teamId,
            subject: { type: 'team', id: teamId },
            payload: { userId: memberId, role, previousRole: current },
          });
        }
      });
      changed(teamId);
      return memberOf(userId, teamId, memberId);
    },
    /**
     * Removes a member (owners and admins; never the owner), or the caller leaves (their own id). The
     * owner leaves only after transferring ownership. Their access to the team's meetings ends at
     * once, the invitations they made stop working, and their `team.member_removed` event makes the
     * meetings they shared with the team private again (the meetings feature's subscriber).
     */
    removeMember: async (userId: string, teamId: string, memberId: string): Promise<void> => {
      const callerRole = await roleIn(userId, teamId);
      const leaving = memberId === userId;
      if (leaving && callerRole === 'owner') {
        throw new AppError('CONFLICT', 'You are the owner of this team: transfer ownership to another member before leaving, or delete the team.');
      }
      if (!leaving && !managesMembers(callerRole)) throw new AppError('FORBIDDEN', 'Only the team’s owner and admins can remove members.');
      const target = await roleOf(db, teamId, memberId);
      if (!target) throw notFound('Member');
      if (target === 'owner') throw new AppError('FORBIDDEN', 'The owner cannot be removed: they transfer ownership first.');
      const name = await nameOf(memberId);
      await deps.events.transaction(async (trx, raise) => {
        if (!(await removeMember(trx, teamId, memberId))) throw notFound('Member');
        await revokeInvitationsBy(trx, memberId, teamId, deps.now());
        await insertActivity(trx, { teamId, actorId: userId, kind: 'member_removed', subject: name, now: nowIso() });
        raise({
          type: 'team.member_removed',
          actorId: userId,
          ownerId: null,
          teamId,
          subject: { type: 'team', id: teamId },
          payload: { userId: memberId, left: leaving },
        });
      });
      await deps.membersLeft?.([memberId]);
      changed(teamId, [memberId]);
    },

    invitations: async (userId: string, teamId: string): Promise<Invitation[]> => {
      await requireManager(userId, teamId);
      const rows = await openInvitations(db, teamId, deps.now());
      const inviters = await deps.profilesOf(rows.flatMap((r) => (r.invited_by ? [r.invited_by] : [])));
      return rows.map((row) => presentInvitation(row, inviters));
    },
    /**
     * An invitation with a preset role, working for 7 days: emailed with its link when an address is
     * given, else a link to copy. The token is shown this once; only its SHA-256 is stored.
     */
    invite: async (userId: string, teamId: string, input: { email?: string | undefined; role: InvitedRole }): Promise<CreatedInvitation> => {
      await requireManager(userId, teamId);
      const email = input.email?.trim().toLowerCase() ?? null;
      const current = await membersOf(db, teamId);
      const profiles = await deps.profilesOf([...current.map((m) => m.userId), userId]);
      if (email && current.some((m) => profiles.get(m.userId)?.email.toLowerCase() === email)) {
        throw new AppError('CONFLICT', `${email} is already a member of this team.`);
      }
      // Inviting an address again replaces its earlier invitation (one open link per person), so that one does not count.
      const open = (await openInvitations(db, teamId, deps.now())).filter((i) => email === null || i.email !== email);
      if (open.length >= MAX_OPEN_INVITATIONS) {
        throw new AppError('CONFLICT', `This team already has ${MAX_OPEN_INVITATIONS} open invitations. Revoke one before inviting more.`);
      }
      // Refused before anything changes: an invitation whose email may not go is not made, and the earlier one stays.
      if (email) {
        await countInvitationEmail(userId, email);
        await revokeInvitationsTo(db, teamId, email, deps.now());
      }
      const token = newOpaqueToken();
      const team = await teamFor(userId, teamId);
      // The invitation, its activity and its event commit together: the email leaves from the event,
      // so a crash after the commit still sends it (and a failed commit sends nothing).
      const row = await deps.events.transaction(async (trx, raise) => {
        const invitation = await insertInvitation(trx, {
          teamId,
          email,
          role: input.role,
          token,
          invitedBy: userId,
          now: deps.now(),
          validMs: INVITATION_VALID_MS,
        });
        await insertActivity(trx, { teamId, actorId: userId, kind: 'member_invited', subject: email, now: nowIso() });
        raise({
          type: 'invitation.created',
          actorId: userId,
          ownerId: null,
          teamId,
          subject: { type: 'invitation', id: invitation.id },
          payload: {
            invitationId: invitation.id,
            teamId,
            teamName: team.name,
            email,
            role: input.role,
            sealedToken: email ? deps.secrets.seal(token, `invitation:${invitation.id}`) : null,
            expiresAt: invitation.expires_at,
          },
        });
        return invitation;
      });
      changed(teamId);
      return { ...presentInvitation(row, profiles), token, url: invitationUrl(token), emailed: email !== null };
    },
    /** The link of an invitation, from its event (the in-app notice of an invitation links to it). */
    invitationUrlOf: (event: Extract<DomainEvent, { type: 'invitation.created' }>): string | undefined =>
      event.payload.sealedToken ? invitationUrl(deps.secrets.open(event.payload.sealedToken, `invitation:${event.payload.invitationId}`).plaintext) : undefined,
    /**
     * Sends an emailed invitation (its `invitation.created` event): once, while it is still open. A
     * failure is the inviter's to see on the invitation ("retrying", then "failed"); the mail
     * server's own answer is for the operator's log.
     */
    sendInvitationEmail: async (event: Extract<DomainEvent, { type: 'invitation.created' }>, attempt: { final: boolean }): Promise<void> => {
      const { invitationId, email, sealedToken } = event.payload;
      if (!email || !sealedToken) return;
      const invitation = await invitationById(db, invitationId);
      const open = invitation && !invitation.accepted_at && !invitation.revoked_at && invitation.expires_at > nowIso();
      if (!open || invitation.email_status === 'sent') return;
      const link = invitationUrl(deps.secrets.open(sealedToken, `invitation:${invitationId}`).plaintext);
      const inviter = event.actorId ? await nameOf(event.actorId) : 'Someone';
      try {
        await deps.sendEmail(
          invitationEmail({ to: email, teamName: event.payload.teamName, inviter, role: event.payload.role, link, expiresAt: invitation.expires_at }),
        );
      } catch (error) {
        await setInvitationEmail(db, invitationId, attempt.final ? 'failed' : 'retrying', attempt.final ? INVITATION_EMAIL_FAILED : INVITATION_EMAIL_RETRYING);
        changed(invitation.team_id);
        throw error;
      }
      await setInvitationEmail(db, invitationId, 'sent', null);
      changed(invitation.team_id);
    },
    revokeInvitation: async (userId: string, teamId: string, invitationId: string): Promise<void> => {
      await requireManager(userId, teamId);
      if (!(await revokeInvitation(db, teamId, invitationId, deps.now()))) throw notFound('Invitation');
      changed(teamId);
    },
    /** What an open invitation offers, for the page that asks to accept it (no sign-in needed). */
    preview: async (token: string): Promise<InvitationPreview> => {
      const invitation = await openInvitation(token);
      return {
        teamName: invitation.team_name,
        invitedBy: invitation.invited_by ? await nameOf(invitation.invited_by) : 'Someone',
        role: invitation.role,
        expiresAt: invitation.expires_at,
        email: invitation.email,
      };
    },
    /** The signed-in caller joins the team with the invitation's role; the invitation is used up. */
    accept: async (userId: string, token: string): Promise<Team> => {
      const invitation = await openInvitation(token);
      if (await roleOf(db, invitation.team_id, userId)) throw new AppError('CONFLICT', `You are already a member of ${invitation.team_name}.`);
      // An emailed invitation is for its address: a forwarded or leaked email does not let another account in.
      if (invitation.email !== null) {
        const email = (await deps.profilesOf([userId])).get(userId)?.email.trim().toLowerCase();
        if (email !== invitation.email) {
          throw new AppError(
            'FORBIDDEN',
            'This invitation was emailed to another address. Sign in with the account of that address to accept it, or ask for an invitation to yours.',
          );
        }
      }
      const joined = await deps.events.transaction(async (trx, raise) => {
        if (!(await acceptInvitation(trx, invitation, userId, deps.now()))) return false;
        await insertActivity(trx, { teamId: invitation.team_id, actorId: userId, kind: 'member_joined', now: nowIso() });
        raise({
          type: 'team.member_added',
          actorId: userId,
          ownerId: null,
          teamId: invitation.team_id,
          subject: { type: 'team', id: invitation.team_id },
          payload: { userId, role: invitation.role },
        });
        return true;
      });
      if (!joined) {
        // Another accept or a revoke got there first: say which, as the checks above would now.
        await openInvitation(token);
        throw new AppError('GONE', 'This invitation can no longer be used. Ask for a new invitation.');
      }
      changed(invitation.team_id);
      return teamFor(userId, invitation.team_id);
    },

    /** What happened in the team, newest first, for its members. */
    activity: async (userId: string, teamId: string, limit: number): Promise<TeamActivity[]> => {
      await roleIn(userId, teamId);
      const rows = await activityOf(db, teamId, limit);
      const [actors, stillShared] = await Promise.all([
        deps.profilesOf(rows.flatMap((r) => (r.actor_id ? [r.actor_id] : []))),
        deps.meetings.sharedWithTeam(
          teamId,
          rows.flatMap((r) => (r.meeting_id ? [r.meeting_id] : [])),
        ),
      ]);
      return rows.map((row) => ({
        id: row.id,
        kind: row.kind,
        actor: { id: row.actor_id, name: (row.actor_id && actors.get(row.actor_id)?.name) ?? 'Someone' },
        at: row.created_at,
        meeting:
          row.meeting_title === null ? null : { id: row.meeting_id && stillShared.has(row.meeting_id) ? row.meeting_id : null, title: row.meeting_title },
        subject: row.subject,
      }));
    },

    /** Delete Account, before the account goes: the invitations the person made stop working in every team. */
    accountDeleted: async (userId: string): Promise<void> => {
      await revokeInvitationsBy(db, userId, null, deps.now());
    },
    /** Delete All Data and Delete Account: their meetings' titles and the addresses they invited leave their teams' activity. */
    forgetActivityOf: async (userId: string): Promise<void> => {
      const email = (await deps.profilesOf([userId])).get(userId)?.email ?? null;
      const teamIds = await teamIdsOf(db, userId);
      await forgetActivityOf(db, userId, email);
      for (const teamId of teamIds) changed(teamId);
    },

    /** The person's role in the team, undefined when they are not in it (integrations check who may change a team's channel). */
    roleOf: (userId: string, teamId: string): Promise<TeamRole | undefined> => roleOf(db, teamId, userId),
    // The port the meetings feature uses (deps.ts).
    teamIdsOf: (userId: string) => teamIdsOf(db, userId),
    memberIdsOf: async (teamId: string) => (await membersOf(db, teamId)).map((m) => m.userId),
    /** Refuses unless the person is the team's owner or an admin (team-wide integrations, e.g. webhooks): 404 outside it, 403 below admin. */
    assertManager: async (userId: string, teamId: string): Promise<void> => void (await requireManager(userId, teamId)),
    /** The teams the person owns or administers. */
    managedTeamIdsOf: async (userId: string): Promise<string[]> => {
      const ids = await teamIdsOf(db, userId);
      const roles = await Promise.all(ids.map(async (id) => ((await roleOf(db, id, userId)) ?? 'member') as TeamRole));
      return ids.filter((_, i) => managesMembers(roles[i]!));
    },
    /** A meeting's entry in the team's activity; `id` (an event's) makes a repeated delivery write it once. */
    recordActivity: async (activity: { id?: string; teamId: string; actorId: string; kind: TeamActivityKind; meetingId: string; meetingTitle: string }) => {
      await record(activity.teamId, activity.actorId, activity.kind, { id: activity.id, meetingId: activity.meetingId, meetingTitle: activity.meetingTitle });
      changed(activity.teamId);
    },
    teamChanged: (teamId: string) => changed(teamId),
    availabilityChanged,

    /**
     * The web app's heartbeat while one of the person's tabs is visible. Coming back after
     * ACTIVE_WITHIN_MINUTES away makes them "Available" again: their teams hear of it.
     */
    heartbeat: async (userId: string): Promise<void> => {
      const now = deps.now();
      const before = await touchPresence(db, userId, now.toISOString());
      if (before === null || Date.parse(before) < now.getTime() - ACTIVE_WITHIN_MINUTES * 60_000) availabilityChanged(userId);
    },
  };
}
