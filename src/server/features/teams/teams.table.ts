import type { InvitationEmailStatus, TeamActivityKind, TeamRole } from '#shared/contracts/teams.ts';

/** Tables of the teams feature (migration 2026-11-24-1400). Timestamps are ISO-8601 UTC text. */

export type TeamsTable = {
  id: string;
  name: string;
  /** Who created it; null once that account is deleted. */
  created_by: string | null;
  created_at: string;
  updated_at: string;
};

export type TeamMembersTable = {
  team_id: string;
  user_id: string;
  role: TeamRole;
  joined_at: string;
};

export type TeamInvitationsTable = {
  id: string;
  team_id: string;
  /** The address it was emailed to; null for a copyable link. */
  email: string | null;
  role: 'admin' | 'member';
  /** SHA-256 of the token (lib/opaque-token.ts); the token itself is never stored. */
  token_hash: string;
  invited_by: string | null;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  accepted_at: string | null;
  accepted_by: string | null;
  /** An emailed invitation's delivery (null for a copyable link); the reason the inviter reads when it failed. */
  email_status: InvitationEmailStatus | null;
  email_error: string | null;
};

export type TeamActivityTable = {
  id: string;
  team_id: string;
  actor_id: string | null;
  kind: TeamActivityKind;
  meeting_id: string | null;
  /** The title when it happened, so the event still reads well after a rename or deletion. */
  meeting_title: string | null;
  /** Who was invited (their address) or removed (their name). */
  subject: string | null;
  created_at: string;
};

/** When a person's open tab last said it was in use (migration 2026-11-24-1420): "Available" on /team. */
export type TeamPresenceTable = {
  user_id: string;
  seen_at: string;
};

export type TeamTables = {
  teams: TeamsTable;
  team_members: TeamMembersTable;
  team_invitations: TeamInvitationsTable;
  team_activity: TeamActivityTable;
  team_presence: TeamPresenceTable;
};
