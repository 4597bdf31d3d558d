import type { InstanceSettingsTable } from './instance-settings.table.ts';

/** Every table Kysely knows, assembled from the features' own table files. */
export type Database = {
  instance_settings: InstanceSettingsTable;
};
