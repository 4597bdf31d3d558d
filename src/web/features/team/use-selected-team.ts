import { useCallback, useState } from 'react';
import type { Team } from '#shared/contracts/teams.ts';
import { chosenTeam, storedTeamChoice, storeTeamChoice } from '#web/lib/team-choice.ts';

/**
 * The team /team shows: the one the person picked last in this browser (kept per person, so another
 * person signing in here never starts on it), else their first. A team they left or that was deleted
 * falls back to the first of those they still have. (/record's Auto-Share shares with the same team.)
 */
export function useSelectedTeam(userId: string | undefined, teams: readonly Team[] | undefined): [string | undefined, (teamId: string | null) => void] {
  const [picked, setPicked] = useState<string | null>(() => storedTeamChoice(userId));
  const select = useCallback(
    (teamId: string | null) => {
      setPicked(teamId);
      if (userId) storeTeamChoice(userId, teamId);
    },
    [userId],
  );
  return [chosenTeam(teams, picked)?.id, select];
}
