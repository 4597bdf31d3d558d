import type { TeamRole } from '#shared/contracts/teams.ts';
import type { VocabularyOverview } from '#shared/contracts/vocabulary.ts';
import type { Db } from '#server/db/create-db.ts';
import { AppError, notFound } from '#server/lib/app-error.ts';
import { removeUserTerms, saveTeamTerms, saveUserTerms, teamTerms, userTerms } from './vocabulary.repository.ts';

/** What the vocabulary feature needs of teams (deps.ts hands over the teams service). */
export type VocabularyTeamsPort = {
  list: (userId: string) => Promise<{ id: string; name: string; role: TeamRole }[]>;
  roleOf: (userId: string, teamId: string) => Promise<TeamRole | undefined>;
};

/** What it needs of billing: the plan's word on custom vocabulary (spec §9: from Pro). */
export type VocabularyBillingPort = {
  assertCustomVocabulary: (userId: string) => Promise<void>;
  customVocabulary: (userId: string) => Promise<{ included: boolean; note: string }>;
};

export type VocabularyService = ReturnType<typeof createVocabularyService>;

const canEdit = (role: TeamRole) => role === 'owner' || role === 'admin';

/** The terms once each, in the order given: "parley" after "Parley" is the same term. */
export function distinctTerms(terms: readonly string[]): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const term of terms) {
    const trimmed = term.trim().replace(/\s+/g, ' ');
    const key = trimmed.toLocaleLowerCase('en-US');
    if (trimmed === '' || seen.has(key)) continue;
    seen.add(key);
    kept.push(trimmed);
  }
  return kept;
}

/**
 * Custom vocabulary: a person's own terms and each team's (its owner and admins edit them). Saving
 * is refused by the plan (billing's PLAN_LIMIT) unless it includes custom vocabulary; a meeting is
 * transcribed with its owner's terms and, shared with a team, the team's, while the owner's plan
 * includes it. Nothing else reads these tables.
 */
export function createVocabularyService(deps: { db: Db; teams: VocabularyTeamsPort; billing: VocabularyBillingPort; now: () => Date }) {
  const { db, teams, billing } = deps;

  const overview = async (userId: string): Promise<VocabularyOverview> => {
    const [terms, memberships, plan] = await Promise.all([userTerms(db, userId), teams.list(userId), billing.customVocabulary(userId)]);
    const byTeam = await teamTerms(
      db,
      memberships.map((t) => t.id),
    );
    return {
      terms,
      teams: memberships.map((t) => ({ teamId: t.id, teamName: t.name, role: t.role, terms: byTeam.get(t.id) ?? [], canEdit: canEdit(t.role) })),
      included: plan.included,
      note: plan.note,
    };
  };

  return {
    overview,

    /** Replaces the caller's own terms; emptying the list is always allowed. */
    save: async (userId: string, terms: readonly string[]): Promise<VocabularyOverview> => {
      const kept = distinctTerms(terms);
      if (kept.length > 0) await billing.assertCustomVocabulary(userId);
      await saveUserTerms(db, userId, kept, deps.now());
      return overview(userId);
    },

    /** Replaces a team's terms: its owner and admins (not in the team: 404; a member: 403), within their plan. */
    saveTeam: async (userId: string, teamId: string, terms: readonly string[]): Promise<VocabularyOverview> => {
      const role = await teams.roleOf(userId, teamId);
      if (!role) throw notFound('Team');
      if (!canEdit(role)) throw new AppError('FORBIDDEN', 'Only the team’s owner and admins can change its vocabulary.');
      const kept = distinctTerms(terms);
      if (kept.length > 0) await billing.assertCustomVocabulary(userId);
      await saveTeamTerms(db, teamId, userId, kept, deps.now());
      return overview(userId);
    },

    /** Delete All Data: the person's own terms go with their settings (a team's stay the team's). */
    removeFor: (userId: string): Promise<void> => removeUserTerms(db, userId),

    /**
     * The terms a meeting is transcribed and written up with: its owner's, then its team's (when
     * shared with one), once each; none while the owner's plan does not include custom vocabulary.
     */
    forMeeting: async (meeting: { ownerId: string; teamId: string | null }): Promise<string[]> => {
      if (!(await billing.customVocabulary(meeting.ownerId)).included) return [];
      const own = await userTerms(db, meeting.ownerId);
      const team = meeting.teamId ? ((await teamTerms(db, [meeting.teamId])).get(meeting.teamId) ?? []) : [];
      return distinctTerms([...own, ...team]);
    },
  };
}
