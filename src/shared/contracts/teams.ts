import { z } from 'zod/mini';
import { defineEndpoint } from './endpoint.ts';
import { SHARE_TOKEN_PATTERN } from './sharing.ts';

/**
 * Teams (/api/v1/teams, /api/v1/invitations): a person creates teams and belongs to several, with a
 * role in each. Owner: everything, transfer ownership, delete the team; admin: invite, remove
 * members, change roles below owner; member: view and use what is shared with the team.
 */

export const TEAM_ROLES = ['owner', 'admin', 'member'] as const;
export const TeamRoleSchema = z.enum(TEAM_ROLES);
export type TeamRole = z.infer<typeof TeamRoleSchema>;
/** The roles an invitation may carry: ownership is transferred, never invited into. */
export const InvitedRoleSchema = z.enum(['admin', 'member']);
export type InvitedRole = z.infer<typeof InvitedRoleSchema>;

export const MAX_TEAM_NAME_LENGTH = 80;
/** An invitation works this long after it was sent. */
export const INVITATION_VALID_DAYS = 7;

export const TeamSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The caller's role in the team. */
  role: TeamRoleSchema,
  memberCount: z.number().check(z.int(), z.nonnegative()),
  createdAt: z.string(),
});
export type Team = z.infer<typeof TeamSchema>;
export const TeamListSchema = z.object({ items: z.array(TeamSchema) });

export const CreateTeamBodySchema = z.object({ name: z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_TEAM_NAME_LENGTH)) });
export const TeamParamsSchema = z.object({ teamId: z.uuid() });
export const MemberParamsSchema = z.object({ teamId: z.uuid(), userId: z.uuid() });
export const InvitationParamsSchema = z.object({ teamId: z.uuid(), invitationId: z.uuid() });
export const InvitationTokenParamsSchema = z.object({ token: z.string().check(z.regex(SHARE_TOKEN_PATTERN, 'is not an invitation token')) });

/** 'busy': recording now; 'active': seen in the last 10 minutes; 'away' otherwise. */
export const AvailabilitySchema = z.enum(['busy', 'active', 'away']);
export type Availability = z.infer<typeof AvailabilitySchema>;
/** The words /team shows for each availability (spec §2 /team). */
export const AVAILABILITY_STATUS: Record<Availability, string> = { busy: 'In a meeting', active: 'Available', away: 'Away' };
/** How recently a person must have used Parley to count as active. */
export const ACTIVE_WITHIN_MINUTES = 10;

export const TeamMemberSchema = z.object({
  userId: z.uuid(),
  name: z.string(),
  email: z.string(),
  /** Their profile picture as this server serves it (Settings › Profile "Change"); null: none, show initials. */
  avatarUrl: z.nullable(z.string()),
  role: TeamRoleSchema,
  availability: AvailabilitySchema,
  status: z.string(),
  lastActiveAt: z.nullable(z.string()),
  joinedAt: z.string(),
  /** Meetings of theirs shared with this team. */
  meetingsRecorded: z.number().check(z.int(), z.nonnegative()),
  /** Meetings shared with this team in which a speaker carries their name or they are a listed participant. */
  meetingsAttended: z.number().check(z.int(), z.nonnegative()),
});
export type TeamMember = z.infer<typeof TeamMemberSchema>;
export const TeamMemberListSchema = z.object({ items: z.array(TeamMemberSchema) });

/** PATCH …/members/:userId: a new role; `owner` transfers ownership (the owner alone), making the caller an admin. */
export const UpdateMemberBodySchema = z.object({ role: TeamRoleSchema });

export const CreateInvitationBodySchema = z.object({
  /** Left out for a copyable link nobody is emailed. */
  email: z.optional(z.email().check(z.maxLength(254))),
  role: z._default(InvitedRoleSchema, 'member'),
});
export type CreateInvitationBody = z.input<typeof CreateInvitationBodySchema>;

/** An emailed invitation's email: on its way, sent, being tried again, or given up on. */
export const InvitationEmailStatusSchema = z.enum(['sending', 'sent', 'retrying', 'failed']);
export type InvitationEmailStatus = z.infer<typeof InvitationEmailStatusSchema>;

export const InvitationSchema = z.object({
  id: z.uuid(),
  email: z.nullable(z.string()),
  /** Null for a link to copy; what went wrong is `emailError`, in words for the inviter. */
  emailStatus: z.nullable(InvitationEmailStatusSchema),
  emailError: z.nullable(z.string()),
  role: InvitedRoleSchema,
  invitedBy: z.object({ id: z.nullable(z.uuid()), name: z.string() }),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type Invitation = z.infer<typeof InvitationSchema>;
export const InvitationListSchema = z.object({ items: z.array(InvitationSchema) });
/** POST …/invitations: the one time the link (and its token) is shown; the email carries the same link. */
export const CreatedInvitationSchema = z.extend(InvitationSchema, { token: z.string(), url: z.string(), emailed: z.boolean() });
export type CreatedInvitation = z.infer<typeof CreatedInvitationSchema>;

/** GET /api/v1/invitations/:token: what a person is about to accept, shown before signing in. */
export const InvitationPreviewSchema = z.object({
  teamName: z.string(),
  invitedBy: z.string(),
  role: InvitedRoleSchema,
  expiresAt: z.string(),
  /** The address an emailed invitation is for (only that account may accept it); null for a link to copy. Sign-up starts with it. */
  email: z.nullable(z.string()),
});
export type InvitationPreview = z.infer<typeof InvitationPreviewSchema>;
export const AcceptedInvitationSchema = z.object({ team: TeamSchema });

export const TEAM_ACTIVITY_KINDS = [
  'meeting_recorded',
  'meeting_imported',
  'meeting_shared',
  'transcript_downloaded',
  'insights_shared',
  'member_invited',
  'member_removed',
  'member_joined',
] as const;
export const TeamActivityKindSchema = z.enum(TEAM_ACTIVITY_KINDS);
export type TeamActivityKind = z.infer<typeof TeamActivityKindSchema>;

export const TeamActivitySchema = z.object({
  id: z.uuid(),
  kind: TeamActivityKindSchema,
  actor: z.object({ id: z.nullable(z.uuid()), name: z.string() }),
  at: z.string(),
  /** The meeting it was about, titled as it was then; its id only while it is still shared with the team (a link members can open). */
  meeting: z.nullable(z.object({ id: z.nullable(z.uuid()), title: z.string() })),
  /** Who was invited (the address) or removed (the name). */
  subject: z.nullable(z.string()),
});
export type TeamActivity = z.infer<typeof TeamActivitySchema>;

/**
 * How an entry of a team's activity reads after the person's name, in parts around the meeting's
 * title (the Activity tab links it, emails quote it): “shared” + “Launch review” + “with the team”.
 * `title` is null when the entry is not about a meeting, and `before` then says it all.
 */
export function activityWords(entry: Pick<TeamActivity, 'kind' | 'meeting' | 'subject'>): { before: string; title: string | null; after: string } {
  const title = entry.meeting?.title ?? null;
  const about = (before: string, after: string, withoutTitle: string) =>
    title === null ? { before: withoutTitle, title, after: '' } : { before, title, after };
  const only = (before: string) => ({ before, title: null, after: '' });
  switch (entry.kind) {
    case 'meeting_recorded':
      return about('recorded', '', 'recorded a meeting');
    case 'meeting_imported':
      return about('imported', '', 'imported a meeting');
    case 'meeting_shared':
      return about('shared', 'with the team', 'shared a meeting with the team');
    case 'transcript_downloaded':
      return about('downloaded the transcript of', '', 'downloaded a transcript');
    case 'insights_shared':
      return about('shared the AI insights of', 'by link', 'shared a meeting’s AI insights by link');
    case 'member_invited':
      return only(entry.subject ? `invited ${entry.subject} to the team` : 'created an invite link for the team');
    case 'member_removed':
      return only(`removed ${entry.subject ?? 'a member'} from the team`);
    case 'member_joined':
      return only('joined the team');
  }
}
export const TeamActivityQuerySchema = z.object({ limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(200)), 50) });
export const TeamActivityListSchema = z.object({ items: z.array(TeamActivitySchema) });

export const OkSchema = z.object({ ok: z.literal(true) });

const tag = 'teams';

export const teamEndpoints = {
  list: defineEndpoint({ method: 'GET', path: '/api/v1/teams', response: TeamListSchema, tag, summary: "The caller's teams, with their role" }),
  create: defineEndpoint({ method: 'POST', path: '/api/v1/teams', body: CreateTeamBodySchema, response: TeamSchema, status: 201, tag }),
  rename: defineEndpoint({ method: 'PATCH', path: '/api/v1/teams/:teamId', params: TeamParamsSchema, body: CreateTeamBodySchema, response: TeamSchema, tag }),
  remove: defineEndpoint({
    method: 'DELETE',
    path: '/api/v1/teams/:teamId',
    params: TeamParamsSchema,
    response: OkSchema,
    tag,
    summary: 'Delete the team (owner)',
  }),
  members: defineEndpoint({ method: 'GET', path: '/api/v1/teams/:teamId/members', params: TeamParamsSchema, response: TeamMemberListSchema, tag }),
  updateMember: defineEndpoint({
    method: 'PATCH',
    path: '/api/v1/teams/:teamId/members/:userId',
    params: MemberParamsSchema,
    body: UpdateMemberBodySchema,
    response: TeamMemberSchema,
    tag,
    summary: "Change a member's role; role owner transfers ownership",
  }),
  removeMember: defineEndpoint({
    method: 'DELETE',
    path: '/api/v1/teams/:teamId/members/:userId',
    params: MemberParamsSchema,
    response: OkSchema,
    tag,
    summary: 'Remove a member, or leave the team (your own id)',
  }),
  activity: defineEndpoint({
    method: 'GET',
    path: '/api/v1/teams/:teamId/activity',
    params: TeamParamsSchema,
    query: TeamActivityQuerySchema,
    response: TeamActivityListSchema,
    tag,
  }),
  heartbeat: defineEndpoint({
    method: 'POST',
    path: '/api/v1/teams/presence',
    response: OkSchema,
    tag,
    summary: "A visible tab's heartbeat (every 2 minutes): keeps its person Available on their teams' pages",
  }),
  invitations: defineEndpoint({ method: 'GET', path: '/api/v1/teams/:teamId/invitations', params: TeamParamsSchema, response: InvitationListSchema, tag }),
  invite: defineEndpoint({
    method: 'POST',
    path: '/api/v1/teams/:teamId/invitations',
    params: TeamParamsSchema,
    body: CreateInvitationBodySchema,
    response: CreatedInvitationSchema,
    status: 201,
    tag,
    summary: 'Invite by email (the email carries the link) or make a copyable invite link',
  }),
  revokeInvitation: defineEndpoint({
    method: 'DELETE',
    path: '/api/v1/teams/:teamId/invitations/:invitationId',
    params: InvitationParamsSchema,
    response: OkSchema,
    tag,
  }),
  previewInvitation: defineEndpoint({
    method: 'GET',
    path: '/api/v1/invitations/:token',
    params: InvitationTokenParamsSchema,
    response: InvitationPreviewSchema,
    auth: false,
    tag,
    summary: 'What an invitation offers (public: shown before signing in)',
  }),
  acceptInvitation: defineEndpoint({
    method: 'POST',
    path: '/api/v1/invitations/:token/accept',
    params: InvitationTokenParamsSchema,
    response: AcceptedInvitationSchema,
    tag,
  }),
};
