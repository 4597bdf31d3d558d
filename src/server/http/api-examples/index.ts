import { apiTokenEndpoints } from '#shared/contracts/api-tokens.ts';
import { askEndpoints } from '#shared/contracts/ask.ts';
import { billingEndpoints } from '#shared/contracts/billing.ts';
import { calendarEndpoints } from '#shared/contracts/calendar.ts';
import { microsoftTeamsEndpoints, slackEndpoints } from '#shared/contracts/chat-integrations.ts';
import { dataExportEndpoints } from '#shared/contracts/data-export.ts';
import type { Endpoint } from '#shared/contracts/endpoint.ts';
import { errorReportEndpoints } from '#shared/contracts/error-reports.ts';
import { insightsEndpoints } from '#shared/contracts/insights.ts';
import { meEndpoints } from '#shared/contracts/me.ts';
import { meetingEndpoints } from '#shared/contracts/meetings.ts';
import { notesEndpoints } from '#shared/contracts/notes.ts';
import { notificationEndpoints } from '#shared/contracts/notifications.ts';
import { settingsEndpoints } from '#shared/contracts/settings.ts';
import { shareEndpoints } from '#shared/contracts/sharing.ts';
import { statusEndpoints } from '#shared/contracts/status.ts';
import { teamsSyncEndpoints } from '#shared/contracts/teams-sync.ts';
import { teamEndpoints } from '#shared/contracts/teams.ts';
import { trackerEndpoints } from '#shared/contracts/tracker.ts';
import { vocabularyEndpoints } from '#shared/contracts/vocabulary.ts';
import { voiceProfileEndpoints } from '#shared/contracts/voice-profiles.ts';
import { webhookEndpoints } from '#shared/contracts/webhooks.ts';
import {
  apiTokenExamples,
  billingExamples,
  dataExportExamples,
  errorReportExamples,
  meExamples,
  notificationExamples,
  settingsExamples,
  statusExamples,
  vocabularyExamples,
} from './account.examples.ts';
import type { AnyExamples } from './example-types.ts';
import { calendarExamples, microsoftTeamsExamples, slackExamples, teamsSyncExamples, webhookExamples } from './integrations.examples.ts';
import { askExamples, insightsExamples, meetingExamples, notesExamples, shareExamples, trackerExamples, voiceProfileExamples } from './meetings.examples.ts';
import { teamExamples } from './teams.examples.ts';

const groups: [Record<string, Endpoint>, Record<string, AnyExamples>][] = [
  [apiTokenEndpoints, apiTokenExamples],
  [askEndpoints, askExamples],
  [billingEndpoints, billingExamples],
  [calendarEndpoints, calendarExamples],
  [slackEndpoints, slackExamples],
  [microsoftTeamsEndpoints, microsoftTeamsExamples],
  [dataExportEndpoints, dataExportExamples],
  [errorReportEndpoints, errorReportExamples],
  [insightsEndpoints, insightsExamples],
  [meEndpoints, meExamples],
  [meetingEndpoints, meetingExamples],
  [notesEndpoints, notesExamples],
  [notificationEndpoints, notificationExamples],
  [settingsEndpoints, settingsExamples],
  [shareEndpoints, shareExamples],
  [statusEndpoints, statusExamples],
  [teamsSyncEndpoints, teamsSyncExamples],
  [teamEndpoints, teamExamples],
  [trackerEndpoints, trackerExamples],
  [vocabularyEndpoints, vocabularyExamples],
  [voiceProfileEndpoints, voiceProfileExamples],
  [webhookEndpoints, webhookExamples],
];

const byEndpoint = new Map<Endpoint, AnyExamples>(
  groups.flatMap(([endpoints, examples]) => Object.keys(endpoints).map((key) => [endpoints[key]!, examples[key]!] as const)),
);

/** The example request body and answer of an endpoint for the OpenAPI document; undefined for an endpoint no group lists. */
export const examplesOf = (endpoint: Endpoint): AnyExamples | undefined => byEndpoint.get(endpoint);
