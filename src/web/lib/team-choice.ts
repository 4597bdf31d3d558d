/**
 * The team a person last chose on /team, remembered in this browser per person (so another person
 * signing in here never starts on it). /team shows it, and /record's Auto-Share shares with it.
 */
const storageKey = (userId: string) => `parley.team.${userId}`;

export function storedTeamChoice(userId: string | undefined): string | null {
  if (!userId) return null;
  try {
    return localStorage.getItem(storageKey(userId));
  } catch {
    return null; // storage refused (private mode): the choice lasts this visit only
  }
}

export function storeTeamChoice(userId: string, teamId: string | null): void {
  try {
    if (teamId) localStorage.setItem(storageKey(userId), teamId);
    else localStorage.removeItem(storageKey(userId));
  } catch {
    // Not remembered: nothing more is lost than the choice.
  }
}

/** The chosen team while the person still has it, else their first (a team they left or that was deleted falls back). */
export const chosenTeam = <T extends { id: string }>(teams: readonly T[] | undefined, picked: string | null): T | undefined =>
  teams?.find((team) => team.id === picked) ?? teams?.[0];
