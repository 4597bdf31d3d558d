import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { dataExportEndpoints, type DataExport } from '#shared/contracts/data-export.ts';
import { AVATAR_MAX_BYTES, meEndpoints } from '#shared/contracts/me.ts';
import { settingsEndpoints, type SettingsPatch, type SettingsResponse, type SettingsTab } from '#shared/contracts/settings.ts';
import { api, download, type RequestOptions } from '#web/lib/api-client.ts';
import { saveBlob } from '#web/lib/download-file.ts';
import { DATA_EXPORT_KEY } from '#web/lib/query-keys.ts';
import { loadSupabase } from '#web/lib/supabase.ts';
import { SETTINGS_MESSAGES } from './settings-messages.ts';
import { useAuth } from '#web/lib/auth/use-auth.ts';

/** Keyed by account, so a different person signing in on this browser never sees the last one's settings. */
export const settingsKeys = {
  all: ['settings'] as const,
  forUser: (userId: string) => ['settings', userId] as const,
};

/** The answer is checked against the contract: settings the screen cannot read never reach a form. */
const READ_OPTIONS: RequestOptions = { badResponseMessage: 'The server answered with settings this page cannot read. Reload the page and try again.' };

export const settingsOptions = (userId: string) =>
  queryOptions({ queryKey: settingsKeys.forUser(userId), queryFn: ({ signal }) => api(settingsEndpoints.get, {}, { ...READ_OPTIONS, signal }) });

/** Every tab of the signed-in person's settings. */
export function useUserSettings() {
  const { user } = useAuth();
  return useQuery({ ...settingsOptions(user?.id ?? ''), enabled: Boolean(user) });
}

/** One PUT per tab, each with its own body schema. */
const SAVE_TAB: { [T in SettingsTab]: (patch: SettingsPatch<T>) => Promise<SettingsResponse> } = {
  notifications: (patch) => api(settingsEndpoints.notifications, { body: patch }, READ_OPTIONS),
  recording: (patch) => api(settingsEndpoints.recording, { body: patch }, READ_OPTIONS),
  privacy: (patch) => api(settingsEndpoints.privacy, { body: patch }, READ_OPTIONS),
  billing: (patch) => api(settingsEndpoints.billing, { body: patch }, READ_OPTIONS),
};

/** Saves fields of one tab; the server answers every tab, as stored. */
export const putSettingsTab = <T extends SettingsTab>(tab: T, patch: SettingsPatch<T>): Promise<SettingsResponse> => SAVE_TAB[tab](patch);

/** Saves fields of one tab; the answer replaces the cached settings. */
export function useSaveSettingsTab<T extends SettingsTab>(tab: T) {
  const { user } = useAuth();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: SettingsPatch<T>) => putSettingsTab(tab, patch),
    onSuccess: (response) => client.setQueryData(settingsKeys.forUser(user?.id ?? ''), response),
  });
}

/**
 * Delete All Data: the server removes every meeting, recording, note, share link and setting of
 * the person and signs out their other devices; every cached answer is then reset, so no page shows
 * what is gone.
 */
export function useDeleteAllData() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => api(meEndpoints.deleteData, { body: { email } }),
    onSuccess: () => client.resetQueries(),
  });
}

/** Delete Account: the server removes the person and everything of theirs; the caller signs out here. */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: (confirm: { email: string; password: string }) => api(meEndpoints.deleteAccount, { body: confirm }),
  });
}

/**
 * The person's latest data export. Its progress arrives over the realtime socket (which refreshes
 * this query); while one is under way it is also read every few seconds, for a tab whose socket is
 * down.
 */
export function useLatestDataExport() {
  const { user } = useAuth();
  return useQuery({
    queryKey: [...DATA_EXPORT_KEY, user?.id ?? ''],
    queryFn: async ({ signal }) => (await api(dataExportEndpoints.latest, {}, { signal })).export,
    enabled: Boolean(user),
    refetchInterval: (query) => (underWay(query.state.data) ? 5_000 : false),
  });
}

const underWay = (value: DataExport | null | undefined) => value?.status === 'queued' || value?.status === 'running';

export function useRequestDataExport() {
  const { user } = useAuth();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api(dataExportEndpoints.request),
    onSuccess: (started) => client.setQueryData([...DATA_EXPORT_KEY, user?.id ?? ''], started),
  });
}

/** Saves the finished archive (the browser's own download, with the bearer token the API needs). */
export async function downloadDataExport(id: string): Promise<void> {
  const file = await download(dataExportEndpoints.download, { params: { id } });
  saveBlob(file.blob, file.fileName ?? 'parley-export.zip');
}

/**
 * Settings › Profile "Change": the server resizes and stores the picture, then its URL goes into the
 * account's user_metadata, so the user menu shows it at once (the auth client reports USER_UPDATED).
 */
export function useChangeAvatar() {
  return useMutation({
    mutationFn: async (file: File) => {
      if (file.size > AVATAR_MAX_BYTES) throw new Error(SETTINGS_MESSAGES.pictureTooLarge);
      const image = await base64Of(file);
      const { avatarUrl } = await api(meEndpoints.setAvatar, { body: { image } });
      const { error } = await (await loadSupabase()).auth.updateUser({ data: { avatar_url: avatarUrl } });
      if (error) throw new Error(error.message);
      return avatarUrl;
    },
  });
}

function base64Of(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('The picture could not be read.'));
    reader.readAsDataURL(file);
  });
}
