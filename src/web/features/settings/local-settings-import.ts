import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { SETTINGS_TABS, validFieldsOf, type SettingsPatch, type SettingsTab } from '#shared/contracts/settings.ts';
import { useAuth } from '#web/lib/auth/use-auth.ts';
import { putSettingsTab, settingsKeys, useUserSettings } from './api.ts';

/**
 * Before settings lived on the server, this screen kept the Notifications, Recording, Privacy and
 * Billing tabs in localStorage, one entry per tab and account. On the first visit after that, the
 * entries are carried to the server (only into tabs the account never saved there, so an old
 * browser never overwrites newer choices) and then removed from the browser.
 */
export const legacyStorageKey = (tab: SettingsTab, userId: string): string => `parley:settings:${tab}:${userId}`;

/** The valid fields of a tab's old local entry; undefined when there is none (or storage is blocked). */
export function readLegacySettings<T extends SettingsTab>(tab: T, userId: string): SettingsPatch<T> | undefined {
  let raw: string | null;
  try {
    raw = window.localStorage.getItem(legacyStorageKey(tab, userId));
  } catch {
    return undefined; // storage blocked by the browser: nothing to carry over
  }
  if (raw === null) return undefined;
  try {
    return validFieldsOf(tab, JSON.parse(raw));
  } catch {
    return {}; // unreadable JSON: nothing worth keeping, but the entry is still removed
  }
}

function forgetLegacySettings(tab: SettingsTab, userId: string): void {
  try {
    window.localStorage.removeItem(legacyStorageKey(tab, userId));
  } catch {
    // Storage blocked: the entry could not have been read either.
  }
}

/** Carries old local settings to the server once the stored ones have loaded; a failed save is retried on the next visit. */
export function useImportLocalSettings(): void {
  const { user } = useAuth();
  const client = useQueryClient();
  const { data } = useUserSettings();
  const started = useRef<string | null>(null);
  const userId = user?.id;
  const savedTabs = data?.savedTabs;

  useEffect(() => {
    if (!userId || !savedTabs || started.current === userId) return;
    started.current = userId;
    void (async () => {
      let imported = false;
      for (const tab of SETTINGS_TABS) {
        const legacy = readLegacySettings(tab, userId);
        if (legacy === undefined) continue;
        if (!savedTabs.includes(tab) && Object.keys(legacy).length > 0) {
          try {
            await putSettingsTab(tab, legacy);
            imported = true;
          } catch {
            continue; // keep the entry for the next visit
          }
        }
        forgetLegacySettings(tab, userId);
      }
      // Refetched rather than set from an answer, which a save made meanwhile may already have overtaken.
      if (imported) await client.invalidateQueries({ queryKey: settingsKeys.forUser(userId) });
    })();
  }, [userId, savedTabs, client]);
}
