/** Installation-wide key/value settings that must survive restarts (e.g. the generated anon key). */
export interface InstanceSettingsTable {
  key: string;
  value: string;
  updated_at: string;
}
