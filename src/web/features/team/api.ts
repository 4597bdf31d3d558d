import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '#web/lib/toast.ts';
import { meetingEndpoints } from '#shared/contracts/meetings.ts';
import { teamEndpoints, type CreateInvitationBody, type TeamRole } from '#shared/contracts/teams.ts';
import { trackerEndpoints } from '#shared/contracts/tracker.ts';
import { api } from '#web/lib/api-client.ts';
import { MEETING_DATA_KEY, TEAM_DATA_KEY } from '#web/lib/query-keys.ts';

/** Query keys of the person's teams; the realtime `team.changed` event invalidates one team's. */
export const teamKeys = {
  all: TEAM_DATA_KEY,
  list: () => [...TEAM_DATA_KEY, 'list'] as const,
  team: (teamId: string) => [...TEAM_DATA_KEY, teamId] as const,
  members: (teamId: string) => [...TEAM_DATA_KEY, teamId, 'members'] as const,
  activity: (teamId: string) => [...TEAM_DATA_KEY, teamId, 'activity'] as const,
  invitations: (teamId: string) => [...TEAM_DATA_KEY, teamId, 'invitations'] as const,
  // Under the meetings root: they are meetings and action items, refreshed as any meeting data is.
  sharedMeetings: (teamId: string) => [...MEETING_DATA_KEY, 'team', teamId] as const,
  ownedItems: (assignee: string) => [...MEETING_DATA_KEY, 'team-assignee', assignee] as const,
};

/** Availability ages without an event (10 minutes unseen is "Away"): the cards are read again each minute. */
const MEMBERS_REFRESH_MS = 60_000;

export const useTeams = () => useQuery(queryOptions({ queryKey: teamKeys.list(), queryFn: ({ signal }) => api(teamEndpoints.list, {}, { signal }) }));

export const useTeamMembers = (teamId: string | undefined) =>
  useQuery({
    queryKey: teamKeys.members(teamId ?? ''),
    queryFn: ({ signal }) => api(teamEndpoints.members, { params: { teamId: teamId ?? '' } }, { signal }),
    enabled: teamId !== undefined,
    refetchInterval: MEMBERS_REFRESH_MS,
  });

export const useTeamActivity = (teamId: string | undefined) =>
  useQuery({
    queryKey: teamKeys.activity(teamId ?? ''),
    queryFn: ({ signal }) => api(teamEndpoints.activity, { params: { teamId: teamId ?? '' }, query: { limit: 100 } }, { signal }),
    enabled: teamId !== undefined,
  });

export const useInvitations = (teamId: string | undefined, enabled: boolean) =>
  useQuery({
    queryKey: teamKeys.invitations(teamId ?? ''),
    queryFn: ({ signal }) => api(teamEndpoints.invitations, { params: { teamId: teamId ?? '' } }, { signal }),
    enabled: enabled && teamId !== undefined,
  });

/**
 * The meetings shared with the team (the newest 100 the person may read that carry this team):
 * View Profile shows a member's own among them and the action items of all of them.
 */
export const useTeamMeetings = (teamId: string, enabled: boolean) =>
  useQuery({
    queryKey: teamKeys.sharedMeetings(teamId),
    queryFn: async ({ signal }) => {
      const page = await api(meetingEndpoints.list, { query: { pageSize: 100 } }, { signal });
      return page.items.filter((meeting) => meeting.teamId === teamId);
    },
    enabled,
  });

/** Open action items whose assignee is this name, in any meeting the person may read. */
export const useOwnedActionItems = (assignee: string, enabled: boolean) =>
  useQuery({
    queryKey: teamKeys.ownedItems(assignee),
    queryFn: ({ signal }) => api(trackerEndpoints.actionItems, { query: { assignee, status: 'open', pageSize: 100 } }, { signal }),
    enabled: enabled && assignee.trim() !== '',
  });

/** Every change answers with the server's own sentence on failure, as a toast; the team's data is read again either way. */
function useTeamMutation<Input, Output>(run: (input: Input) => Promise<Output>, options: { success?: (output: Output, input: Input) => string | null } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (output, input) => {
      const message = options.success?.(output, input);
      if (message) toast.success(message);
    },
    onError: (error) => {
      toast.error(error.message);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: TEAM_DATA_KEY }),
  });
}

export const useCreateTeam = () =>
  useTeamMutation((name: string) => api(teamEndpoints.create, { body: { name } }), { success: (team) => `Team “${team.name}” created` });

export const useRenameTeam = (teamId: string) =>
  useTeamMutation((name: string) => api(teamEndpoints.rename, { params: { teamId }, body: { name } }), { success: (team) => `Team renamed to “${team.name}”` });

export const useDeleteTeam = (teamId: string) => useTeamMutation(() => api(teamEndpoints.remove, { params: { teamId } }), { success: () => 'Team deleted' });

export const useInvite = (teamId: string) =>
  useTeamMutation((body: CreateInvitationBody) => api(teamEndpoints.invite, { params: { teamId }, body }), {
    success: (invitation) => (invitation.emailed ? `Invitation sent to ${invitation.email ?? ''}` : null),
  });

export const useRevokeInvitation = (teamId: string) =>
  useTeamMutation((invitationId: string) => api(teamEndpoints.revokeInvitation, { params: { teamId, invitationId } }), {
    success: () => 'Invitation revoked',
  });

export const useUpdateMember = (teamId: string) =>
  useTeamMutation(
    ({ userId, role }: { userId: string; role: TeamRole; name: string }) => api(teamEndpoints.updateMember, { params: { teamId, userId }, body: { role } }),
    { success: (member, input) => (input.role === 'owner' ? `${input.name} is now the owner` : `${input.name} is now ${roleArticle(member.role)}`) },
  );

export const useRemoveMember = (teamId: string) =>
  useTeamMutation(({ userId }: { userId: string; name: string; leaving: boolean }) => api(teamEndpoints.removeMember, { params: { teamId, userId } }), {
    success: (_ok, input) => (input.leaving ? 'You left the team' : `${input.name} was removed from the team`),
  });

const roleArticle = (role: TeamRole) => (role === 'admin' ? 'an admin' : role === 'owner' ? 'the owner' : 'a member');
