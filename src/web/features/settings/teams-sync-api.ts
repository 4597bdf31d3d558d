import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { teamsSyncEndpoints, type TeamsSyncState } from '#shared/contracts/teams-sync.ts';
import { api } from '#web/lib/api-client.ts';
import { useAuth } from '#web/lib/auth/use-auth.ts';

/** Settings › Connected Accounts › Microsoft Teams: the Microsoft account and its meeting sync. */
const stateKey = (userId: string) => ['teams-sync', userId] as const;

/** The state, read again every two seconds while a sync is queued or under way (its progress). */
export function useTeamsSync() {
  const { user } = useAuth();
  return useQuery({
    queryKey: stateKey(user?.id ?? ''),
    queryFn: ({ signal }) => api(teamsSyncEndpoints.get, {}, { signal }),
    enabled: Boolean(user),
    refetchInterval: (query) => (query.state.data?.sync ? 2_000 : false),
  });
}

/** Every change answers the state as it now is. */
function useStateChange<T>(change: (input: T) => Promise<TeamsSyncState>) {
  const { user } = useAuth();
  const client = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: (state) => client.setQueryData(stateKey(user?.id ?? ''), state),
  });
}

export const useSyncTeams = () => useStateChange(() => api(teamsSyncEndpoints.sync, {}));
export const useDisconnectMicrosoft = () => useStateChange(() => api(teamsSyncEndpoints.disconnect, {}));
export const useFinishMicrosoft = () => useStateChange((body: { state: string; code?: string; error?: string }) => api(teamsSyncEndpoints.finish, { body }));

/** Connect Microsoft account: the server's authorization URL, which the browser then opens. */
export const startMicrosoft = () => api(teamsSyncEndpoints.start, {});
