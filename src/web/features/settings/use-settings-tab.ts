import { useState } from 'react';
import { toast } from '#web/lib/toast.ts';
import type { SettingsPatch, SettingsTab, UserSettings } from '#shared/contracts/settings.ts';
import { useSaveSettingsTab, useUserSettings } from './api.ts';

type TabMessages = { saved: string; failed: string };

/**
 * One tab's form over the settings stored on the server. Edits are kept as a draft laid over what
 * the server answered, so a refetch (or a save in another tab) never throws them away; a save sends
 * the draft, and a failed save keeps it on screen with the reason.
 */
export function useSettingsTab<T extends SettingsTab>(tab: T, messages: TabMessages) {
  const query = useUserSettings();
  const mutation = useSaveSettingsTab(tab);
  const [draft, setDraft] = useState<SettingsPatch<T>>({});
  const stored: UserSettings[T] | undefined = query.data?.settings[tab];
  const values = stored ? { ...stored, ...draft } : undefined;

  const set = <K extends keyof UserSettings[T]>(field: K, value: UserSettings[T][K]) => setDraft((current) => ({ ...current, [field]: value }));
  /** Replaces every field (Restore Defaults): saved like any other change. */
  const setValues = (next: UserSettings[T]) => setDraft({ ...next });

  const save = () => {
    const sent = draft;
    mutation.mutate(sent, {
      onSuccess: () => {
        // Only what was sent is now stored: edits made while the save was under way stay a draft.
        setDraft((current) => withoutSent(current, sent));
        toast.success(messages.saved);
      },
      onError: (error) => toast.error(messages.failed, { description: error.message }),
    });
  };

  return { query, values, set, setValues, save, isSaving: mutation.isPending };
}

function withoutSent<P extends object>(current: P, sent: P): P {
  const sentFields = new Map<string, unknown>(Object.entries(sent));
  const kept = Object.entries(current).filter(([field, value]) => !sentFields.has(field) || sentFields.get(field) !== value);
  return Object.fromEntries(kept) as P;
}
