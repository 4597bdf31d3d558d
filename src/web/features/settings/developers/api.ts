import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiTokenEndpoints, type ApiTokenScope } from '#shared/contracts/api-tokens.ts';
import { teamEndpoints } from '#shared/contracts/teams.ts';
import { webhookEndpoints, type WebhookEventType } from '#shared/contracts/webhooks.ts';
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

const webhookKeys = {
  forUser: (userId: string) => ['webhooks', userId] as const,
  deliveries: (userId: string, id: string) => ['webhooks', userId, id, 'deliveries'] as const,
};

export function useWebhookEndpoints() {
  const { user } = useAuth();
  return useQuery({
    queryKey: webhookKeys.forUser(user?.id ?? ''),
    queryFn: async ({ signal }) => (await api(webhookEndpoints.list, {}, { signal })).endpoints,
    enabled: Boolean(user),
  });
}

/** Teams the person manages (owner or admin): they may add team-wide endpoints. */
export function useManagedTeams() {
  const { user } = useAuth();
  return useQuery({
    queryKey: ['webhooks', user?.id ?? '', 'teams'],
    queryFn: async ({ signal }) => (await api(teamEndpoints.list, {}, { signal })).items.filter((team) => team.role === 'owner' || team.role === 'admin'),
    enabled: Boolean(user),
  });
}

/** The delivery log; read again every 2 s while a delivery is on its way. */
export function useWebhookDeliveries(id: string) {
  const { user } = useAuth();
  return useQuery({
    queryKey: webhookKeys.deliveries(user?.id ?? '', id),
    queryFn: async ({ signal }) => (await api(webhookEndpoints.deliveries, { params: { id } }, { signal })).deliveries,
    enabled: Boolean(user),
    refetchInterval: (query) => (query.state.data?.some((d) => d.status === 'pending' || d.status === 'retrying') ? 2_000 : false),
  });
}

/** Every change to an endpoint or its log refreshes the list and the logs. */
function useWebhookMutation<I, O>(run: (input: I) => Promise<O>) {
  const { user } = useAuth();
  const client = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => client.invalidateQueries({ queryKey: ['webhooks', user?.id ?? ''] }) });
}

export const useCreateWebhook = () =>
  useWebhookMutation((body: { url: string; events: WebhookEventType[]; teamId: string | null }) => api(webhookEndpoints.create, { body }));
export const useUpdateWebhook = () =>
  useWebhookMutation((input: { id: string; enabled: boolean }) => api(webhookEndpoints.update, { params: { id: input.id }, body: { enabled: input.enabled } }));
export const useDeleteWebhook = () => useWebhookMutation((id: string) => api(webhookEndpoints.remove, { params: { id } }));
export const useRotateWebhookSecret = () => useWebhookMutation((id: string) => api(webhookEndpoints.rotateSecret, { params: { id } }));
export const useTestWebhook = () => useWebhookMutation((id: string) => api(webhookEndpoints.test, { params: { id } }));
export const useRedeliver = () => useWebhookMutation((input: { id: string; deliveryId: string }) => api(webhookEndpoints.redeliver, { params: input }));
