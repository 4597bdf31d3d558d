import type { ApiTokenTables } from '../features/api-tokens/api-tokens.table.ts';
import type { AskTables } from '../features/ask/ask.table.ts';
import type { AuthTables } from '../features/auth/auth.table.ts';
import type { BillingTables } from '../features/billing/billing.table.ts';
import type { CalendarTables } from '../features/calendar/calendar.table.ts';
import type { DataExportTables } from '../features/data-export/data-export.table.ts';
import type { EmotionTables } from '../features/emotion/emotion.table.ts';
import type { MeetingTables } from '../features/meetings/meetings.table.ts';
import type { NotesTables } from '../features/notes/notes.table.ts';
import type { NotificationTables } from '../features/notifications/notifications.table.ts';
import type { SamplesTables } from '../features/samples/samples.table.ts';
import type { SettingsTables } from '../features/settings/settings.table.ts';
import type { MicrosoftTeamsTables } from '../features/microsoft-teams/microsoft-teams.table.ts';
import type { SharingTables } from '../features/sharing/sharing.table.ts';
import type { SlackTables } from '../features/slack/slack.table.ts';
import type { TeamTables } from '../features/teams/teams.table.ts';
import type { TeamsSyncTables } from '../features/teams-sync/teams-sync.table.ts';
import type { VocabularyTables } from '../features/vocabulary/vocabulary.table.ts';
import type { WebhookTables } from '../features/webhooks/webhooks.table.ts';
import type { VoiceProfileTables } from '../features/voice-profiles/voice-profiles.table.ts';
import type { EventTables } from '../events/events.table.ts';
import type { JobTables } from '../jobs/jobs.table.ts';
import type { BlobTables } from '../lib/blobs.table.ts';
import type { InstanceSettingsTable } from './instance-settings.table.ts';

/** Every table Kysely knows, assembled from the features' own table files. */
export type Database = ApiTokenTables &
  AskTables &
  AuthTables &
  BillingTables &
  CalendarTables &
  DataExportTables &
  EmotionTables &
  MeetingTables &
  MicrosoftTeamsTables &
  NotesTables &
  NotificationTables &
  SamplesTables &
  SettingsTables &
  SharingTables &
  SlackTables &
  TeamTables &
  TeamsSyncTables &
  VocabularyTables &
  WebhookTables &
  VoiceProfileTables &
  JobTables &
  BlobTables &
  EventTables & {
    instance_settings: InstanceSettingsTable;
  };
