import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SettingsResponseSchema, type SettingsPatch, type SettingsResponse, type SettingsTab } from '#shared/contracts/settings.ts';
import { api, ApiError } from '#web/lib/api-client.ts';
import { useAuth } from '../auth/use-auth.ts';

/** Keyed by account, so a different person signing in on this browser never sees the last one's settings. */
export const settingsKeys = {
  all: ['settings'] as const,
  forUser: (userId: string) => ['settings', userId] as const,
};

/** The answer is checked against the contract: settings the screen cannot read never reach a form. */
function readResponse(body: unknown): SettingsResponse {
  const parsed = SettingsResponseSchema.safeParse(body);
  if (!parsed.success) throw new ApiError(200, 'UNKNOWN', 'The server answered with settings this page cannot read. Reload the page and try again.');
  return parsed.data;
}

export const settingsOptions = (userId: string) =>
  queryOptions({ queryKey: settingsKeys.forUser(userId), queryFn: async ({ signal }) => readResponse(await api<unknown>('/settings', { signal })) });

/** Every tab of the signed-in person's settings (GET /api/v1/settings). */
export function useUserSettings() {
  const { user } = useAuth();
  return useQuery({ ...settingsOptions(user?.id ?? ''), enabled: Boolean(user) });
}

export const putSettingsTab = async <T extends SettingsTab>(tab: T, patch: SettingsPatch<T>): Promise<SettingsResponse> =>
  readResponse(await api<unknown>(`/settings/${tab}`, { method: 'PUT', body: patch }));

/** Saves fields of one tab; the answer (every tab, as stored) replaces the cached settings. */
export function useSaveSettingsTab<T extends SettingsTab>(tab: T) {
  const { user } = useAuth();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: SettingsPatch<T>) => putSettingsTab(tab, patch),
    onSuccess: (response) => client.setQueryData(settingsKeys.forUser(user?.id ?? ''), response),
  });
}
