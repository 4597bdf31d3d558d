/** Table of the settings feature (migration 2026-11-22-1600). */
export type UserSettingsTable = {
  user_id: string;
  /** JSON of the saved fields of each tab, read over the defaults (see readSettingsDocument). */
  settings: string;
  /** Compare-and-set counter: a write applies only over the revision it read. */
  revision: number;
  updated_at: string;
};

export type SettingsTables = {
  user_settings: UserSettingsTable;
};
