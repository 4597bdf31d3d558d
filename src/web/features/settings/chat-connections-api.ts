import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { microsoftTeamsEndpoints, slackEndpoints, type ChatConnection } from '#shared/contracts/chat-integrations.ts';
import { api } from '#web/lib/api-client.ts';
import { useAuth } from '#web/lib/auth/use-auth.ts';

/** Slack and Microsoft Teams channels (Settings › Connected Accounts): the person's own. */
export type ChatProvider = 'slack' | 'teams';

const ENDPOINTS = { slack: slackEndpoints, teams: microsoftTeamsEndpoints } as const;

/** Keyed by account, so another person signing in on this browser never sees the last one's channel. */
const connectionKey = (provider: ChatProvider, userId: string) => ['chat-connection', provider, userId] as const;

export function useChatConnection(provider: ChatProvider) {
  const { user } = useAuth();
  return useQuery({
    queryKey: connectionKey(provider, user?.id ?? ''),
    queryFn: ({ signal }) => api(ENDPOINTS[provider].get, {}, { signal }),
    enabled: Boolean(user),
  });
}

/** Connect (a webhook URL), change the options, send a test or disconnect: each answer replaces the cached state. */
export function useChatConnectionActions(provider: ChatProvider) {
  const { user } = useAuth();
  const client = useQueryClient();
  const store = (state: ChatConnection) => client.setQueryData(connectionKey(provider, user?.id ?? ''), state);
  const endpoints = ENDPOINTS[provider];
  return {
    connect: useMutation({
      mutationFn: (body: { webhookUrl?: string; notesReady?: boolean; shareLinks?: boolean }) => api(endpoints.connect, { body }),
      onSuccess: store,
    }),
    test: useMutation({ mutationFn: () => api(endpoints.test, { body: {} }), onSuccess: store }),
    disconnect: useMutation({
      mutationFn: () => api(endpoints.disconnect, {}),
      onSuccess: () => client.invalidateQueries({ queryKey: connectionKey(provider, user?.id ?? '') }),
    }),
  };
}
