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

/** Whether this server has a Slack app ("Add to Slack") and the redirect URI its operator registers. */
export function useSlackApp() {
  return useQuery({ queryKey: ['slack-app'], queryFn: ({ signal }) => api(slackEndpoints.app, {}, { signal }), staleTime: 60_000 });
}

/** The channels the Slack app can post to, while the person picks one. */
export function useSlackChannels(enabled: boolean) {
  const { user } = useAuth();
  return useQuery({
    queryKey: ['slack-channels', user?.id ?? ''],
    queryFn: ({ signal }) => api(slackEndpoints.channels, {}, { signal }),
    enabled: enabled && Boolean(user),
  });
}

/** "Add to Slack": the browser goes to Slack, which sends it back to the callback page. */
export async function startAddToSlack(): Promise<void> {
  const { authorizationUrl } = await api(slackEndpoints.oauthStart, { body: {} });
  window.location.assign(authorizationUrl);
}

/** The callback page hands Slack's answer (its query string) over; the connection's state comes back and replaces the cached one. */
export function useFinishAddToSlack() {
  const { user } = useAuth();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (callback: string): Promise<ChatConnection> => api(slackEndpoints.oauthFinish, { body: { callback } }),
    onSuccess: (state) => client.setQueryData(connectionKey('slack', user?.id ?? ''), state),
  });
}

export function useChooseSlackChannel() {
  const { user } = useAuth();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (channelId: string) => api(slackEndpoints.chooseChannel, { body: { channelId } }),
    onSuccess: (state) => client.setQueryData(connectionKey('slack', user?.id ?? ''), state),
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
