import type { AuthTables } from '../features/auth/auth.table.ts';
import type { MeetingTables } from '../features/meetings/meetings.table.ts';
import type { SettingsTables } from '../features/settings/settings.table.ts';
import type { SharingTables } from '../features/sharing/sharing.table.ts';
import type { TranscriptionJobTables } from '../features/transcription/jobs/jobs.table.ts';
import type { InstanceSettingsTable } from './instance-settings.table.ts';

/** Every table Kysely knows, assembled from the features' own table files. */
export type Database = AuthTables &
  MeetingTables &
  SettingsTables &
  SharingTables &
  TranscriptionJobTables & {
    instance_settings: InstanceSettingsTable;
  };
