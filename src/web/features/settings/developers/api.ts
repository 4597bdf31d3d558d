import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiTokenEndpoints, type ApiTokenScope } from '#shared/contracts/api-tokens.ts';
import { api } from '#web/lib/api-client.ts';
import { useAuth } from '#web/lib/auth/use-auth.ts';

/** Keyed by account, so another person signing in on this browser never sees the last one's tokens. */
const tokenKeys = { forUser: (userId: string) => ['api-tokens', userId] as const };

export function useApiTokens() {
  const { user } = useAuth();
  return useQuery({
    queryKey: tokenKeys.forUser(user?.id ?? ''),
    queryFn: async ({ signal }) => (await api(apiTokenEndpoints.list, {}, { signal })).tokens,
    enabled: Boolean(user),
  });
}

export function useCreateApiToken() {
  const { user } = useAuth();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; scopes: ApiTokenScope[]; expiresAt: string | null }) => api(apiTokenEndpoints.create, { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: tokenKeys.forUser(user?.id ?? '') }),
  });
}

export function useRevokeApiToken() {
  const { user } = useAuth();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(apiTokenEndpoints.revoke, { params: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: tokenKeys.forUser(user?.id ?? '') }),
  });
}
