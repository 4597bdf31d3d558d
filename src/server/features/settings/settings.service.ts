import type {
  AutoDelete,
  NotificationSettings,
  PrivacySettings,
  RecordingSettings,
  SettingsPatch,
  SettingsResponse,
  SettingsTab,
} from '#shared/contracts/settings.ts';
import type { Db } from '#server/db/create-db.ts';
import type { EventRecorder } from '#server/events/domain-events.ts';
import { getPipelineSettings, type PipelineSettings } from './pipeline-settings.ts';
import {
  deleteUserSettings,
  getSettingsResponse,
  getUserSettings,
  listStoredSettings,
  updateUserSettingsTab,
  type SettingsOwner,
} from './settings.repository.ts';

export type { SettingsOwner } from './settings.repository.ts';

/** Per-person settings (the /settings tabs) for the routes and for the features that act on them. */
export type SettingsService = ReturnType<typeof createSettingsService>;

export function createSettingsService(deps: {
  db: Db;
  timeZoneOf: (userId: string) => Promise<string>;
  /** Billing Information saved raises `billing_details.updated` with the change (billing copies it to Stripe). */
  events?: EventRecorder;
}) {
  const { db, events } = deps;
  return {
    /** The IANA zone of the person's Settings › Profile time zone (exports print their times in it). */
    timeZoneOf: deps.timeZoneOf,
    /** Settings › Recording "Default File Format": what a recording downloads as. */
    audioFormat: async (userId: string): Promise<RecordingSettings['format']> => (await getUserSettings(db, { id: userId })).recording.format,
    get: (owner: SettingsOwner): Promise<SettingsResponse> => getSettingsResponse(db, owner),
    update: <T extends SettingsTab>(owner: SettingsOwner, tab: T, patch: SettingsPatch<T>): Promise<SettingsResponse> => {
      if (tab !== 'billing' || !events) return updateUserSettingsTab(db, owner, tab, patch);
      return events.transaction(async (trx, raise) => {
        const saved = await updateUserSettingsTab(trx, owner, tab, patch);
        raise({ type: 'billing_details.updated', actorId: owner.id, ownerId: owner.id, teamId: null, subject: { type: 'user', id: owner.id }, payload: {} });
        return saved;
      });
    },
    /** Settings › Recording "AI Summary Generation": notes are written for new meetings without being asked. */
    automaticNotes: async (userId: string): Promise<boolean> => (await getUserSettings(db, { id: userId })).recording.aiSummary,
    /** Settings › Privacy: what the person lets leave the installation (error reports, usage events). */
    privacyOf: async (userId: string): Promise<PrivacySettings> => (await getUserSettings(db, { id: userId })).privacy,
    /** Settings › Recording as the transcription pipeline needs it. */
    pipeline: (userId: string): Promise<PipelineSettings> => getPipelineSettings(db, userId),
    /** Delete All Data / Delete Account: the person's saved choices go (defaults from then on). */
    remove: (userId: string): Promise<void> => deleteUserSettings(db, userId),
    /** Each person's Settings › Privacy "Auto-delete recordings" choice, for those who saved one. */
    autoDeleteChoices: async (): Promise<Map<string, AutoDelete>> =>
      new Map((await listStoredSettings(db)).map(({ userId, settings }) => [userId, settings.privacy.autoDelete])),
    /** Who saved a Settings › Notifications choice on (the Team Activity digest, off by default, goes to them). */
    notificationChoosers: async (choice: keyof NotificationSettings): Promise<string[]> =>
      (await listStoredSettings(db)).filter(({ settings }) => settings.notifications[choice]).map(({ userId }) => userId),
  };
}
