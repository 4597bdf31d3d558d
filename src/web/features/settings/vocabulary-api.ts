import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { vocabularyEndpoints, type VocabularyOverview } from '#shared/contracts/vocabulary.ts';
import { api } from '#web/lib/api-client.ts';
import { useAuth } from '#web/lib/auth/use-auth.ts';

/** Keyed by account, like the settings: another person signing in never sees the last one's terms. */
const vocabularyKey = (userId: string) => ['vocabulary', userId] as const;

const vocabularyOptions = (userId: string) =>
  queryOptions({ queryKey: vocabularyKey(userId), queryFn: ({ signal }) => api(vocabularyEndpoints.get, {}, { signal }) });

/** The person's custom vocabulary, their teams' and what their plan says about it. */
export function useVocabulary() {
  const { user } = useAuth();
  return useQuery({ ...vocabularyOptions(user?.id ?? ''), enabled: Boolean(user) });
}

/** Saves the person's own terms (no team) or a team's; the answer replaces the cached overview. */
export function useSaveVocabulary() {
  const { user } = useAuth();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ teamId, terms }: { teamId: string | null; terms: string[] }): Promise<VocabularyOverview> =>
      teamId === null ? api(vocabularyEndpoints.save, { body: { terms } }) : api(vocabularyEndpoints.saveTeam, { params: { teamId }, body: { terms } }),
    onSuccess: (overview) => client.setQueryData(vocabularyKey(user?.id ?? ''), overview),
  });
}
