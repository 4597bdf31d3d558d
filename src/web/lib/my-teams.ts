import { queryOptions, useQuery } from '@tanstack/react-query';
import { teamEndpoints, type Team } from '#shared/contracts/teams.ts';
import { api } from './api-client.ts';
import { TEAM_DATA_KEY } from './query-keys.ts';
import { chosenTeam, storedTeamChoice } from './team-choice.ts';

/**
 * The teams the signed-in person belongs to, as the meeting screens need them: the teams a meeting
 * can be shared with, and /record's Auto-Share team. The same query (and cache entry) as /team's
 * list of teams, which the realtime `team.changed` event refreshes.
 */
export const myTeamsOptions = () =>
  queryOptions({
    queryKey: [...TEAM_DATA_KEY, 'list'] as const,
    queryFn: ({ signal }) => api(teamEndpoints.list, {}, { signal }),
    select: (answer) => answer.items,
  });

export const useMyTeams = (enabled = true) => useQuery({ ...myTeamsOptions(), enabled });

/** The person's teams in the order a choice offers them: by name. */
export const sortedTeams = (teams: readonly Team[]): Team[] => [...teams].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }));

/**
 * The team /record's Auto-Share shares with: the one the person last chose on /team (as /team shows
 * it), else their first team (the oldest they belong to). The option names it.
 */
export const defaultTeam = (teams: readonly Team[], userId: string | undefined): Team | undefined => chosenTeam(teams, storedTeamChoice(userId));
