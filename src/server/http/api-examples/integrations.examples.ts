import type { calendarEndpoints } from '#shared/contracts/calendar.ts';
import type { microsoftTeamsEndpoints, slackEndpoints } from '#shared/contracts/chat-integrations.ts';
import type { teamsSyncEndpoints } from '#shared/contracts/teams-sync.ts';
import type { webhookEndpoints } from '#shared/contracts/webhooks.ts';
import type { ExamplesOf } from './example-types.ts';
import { ids } from './fixtures.ts';

const googleApp = { available: true, redirectUri: 'https://parley.example.com/settings/connections/google' };

const icsConnection = {
  connected: true,
  kind: 'ics',
  label: 'calendar.google.com',
  lastSyncedAt: '2026-12-07T15:15:00.000Z',
  lastError: null,
  eventCount: 37,
  google: googleApp,
} as const;

const calendarEvent = {
  id: 'weekly-sync-20261208T100000Z',
  title: 'Weekly product sync',
  start: '2026-12-08T10:00:00.000Z',
  end: '2026-12-08T10:30:00.000Z',
  allDay: false,
  attendees: [
    { name: 'Maya Chen', email: 'maya@example.com' },
    { name: 'Tomasz Nowak', email: 'tomasz@example.com' },
  ],
  url: 'https://www.google.com/calendar/event?eid=d2Vla2x5LXN5bmM',
  meetingId: null,
  seriesId: 'weekly-sync',
  lastMeeting: {
    id: ids.earlierMeeting,
    title: 'Weekly product sync',
    startedAt: '2026-12-01T10:01:12.000Z',
    summary: 'Agreed to ship the onboarding checklist before the holidays.',
    openActionItems: 2,
  },
};

export const calendarExamples: ExamplesOf<typeof calendarEndpoints> = {
  connection: { response: icsConnection },
  connectIcs: {
    body: { icsUrl: 'https://calendar.google.com/calendar/ical/maya%40example.com/private-5f9c1e/basic.ics' },
    response: icsConnection,
  },
  disconnect: { response: { connected: false, kind: null, label: null, lastSyncedAt: null, lastError: null, eventCount: 0, google: googleApp } },
  sync: { response: { ...icsConnection, lastSyncedAt: '2026-12-07T15:31:02.000Z' } },
  googleStart: {
    response: {
      authorizationUrl:
        'https://accounts.google.com/o/oauth2/v2/auth?client_id=1234567890-abc.apps.googleusercontent.com&response_type=code&scope=https%3A%2F%2Fwww.googleapis.com%2Fauth%2Fcalendar.events&access_type=offline&prompt=consent&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256&state=st_9fK2mQ',
    },
  },
  googleFinish: {
    body: { state: 'st_9fK2mQ', code: '4/0AeaYSHC1xq2kTq9ZrXw' },
    response: { ...icsConnection, kind: 'google', label: 'maya@example.com' },
  },
  events: { response: { events: [calendarEvent] } },
  event: { response: calendarEvent },
  meetingCalendar: {
    response: {
      event: {
        id: 'weekly-sync-20261208T100000Z',
        title: 'Weekly product sync',
        start: '2026-12-08T10:00:00.000Z',
        end: '2026-12-08T10:30:00.000Z',
        allDay: false,
        url: 'https://www.google.com/calendar/event?eid=d2Vla2x5LXN5bmM',
      },
      earlier: [calendarEvent.lastMeeting],
    },
  },
  linkMeeting: { body: { meetingId: ids.meeting }, response: { ...calendarEvent, meetingId: ids.meeting } },
  followUp: {
    body: { meetingId: ids.meeting, start: '2026-12-14T10:00:00+01:00', durationMinutes: 30 },
    response: {
      kind: 'ics',
      fileName: 'follow-up-customer-onboarding-review.ics',
      ics: 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Parley//EN\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:7c9e6679-follow-up@parley\r\nDTSTAMP:20261207T153000Z\r\nDTSTART:20261214T090000Z\r\nDTEND:20261214T093000Z\r\nSUMMARY:Follow-up: Customer onboarding review\r\nDESCRIPTION:Open action items:\\n- Draft the onboarding checklist (Maya Chen\\, due 2026-12-11)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
    },
  },
};

const slackConnection = {
  teamId: null,
  connected: true,
  method: 'webhook',
  destination: 'hooks.slack.com',
  connectedBy: 'Maya Chen',
  connectedAt: '2026-12-02T09:40:00.000Z',
  notesReady: true,
  shareLinks: false,
  lastPostAt: '2026-12-07T14:33:45.000Z',
  lastError: null,
  lastErrorAt: null,
} as const;

export const slackExamples: ExamplesOf<typeof slackEndpoints> = {
  get: { response: slackConnection },
  connect: {
    body: { webhookUrl: 'https://hooks.slack.com/services/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', notesReady: true },
    response: { ...slackConnection, lastPostAt: null },
  },
  disconnect: { response: { ok: true } },
  test: { body: { teamId: ids.team }, response: { ...slackConnection, teamId: ids.team, lastPostAt: '2026-12-07T15:32:10.000Z' } },
  app: { response: { available: true, redirectUri: 'https://parley.example.com/integrations/slack/callback' } },
  oauthStart: {
    body: { teamId: ids.team },
    response: {
      authorizationUrl:
        'https://slack.com/oauth/v2/authorize?client_id=1234567890.9876543210&scope=chat%3Awrite%2Cchannels%3Aread%2Cfiles%3Awrite&redirect_uri=https%3A%2F%2Fparley.example.com%2Fintegrations%2Fslack%2Fcallback&state=st_X2pLq8',
    },
  },
  oauthFinish: {
    body: { callback: 'https://parley.example.com/integrations/slack/callback?code=1234567890.1111.abcdef&state=st_X2pLq8', teamId: ids.team },
    response: { ...slackConnection, teamId: ids.team, method: 'app', destination: 'Acme (pick a channel)', lastPostAt: null },
  },
  channels: {
    response: {
      channels: [
        { id: 'C08F9Q1KX7A', name: 'customer-success', isPrivate: false },
        { id: 'G01ABCD2EFG', name: 'leadership', isPrivate: true },
      ],
    },
  },
  chooseChannel: {
    body: { channelId: 'C08F9Q1KX7A', teamId: ids.team },
    response: { ...slackConnection, teamId: ids.team, method: 'app', destination: '#customer-success in Acme' },
  },
  share: { body: { transcript: true }, response: { ok: true, transcript: 'file', transcriptTruncated: false } },
};

const teamsConnection = { ...slackConnection, destination: 'prod-12.westeurope.logic.azure.com' };

export const microsoftTeamsExamples: ExamplesOf<typeof microsoftTeamsEndpoints> = {
  get: { response: teamsConnection },
  connect: {
    body: {
      webhookUrl: 'https://prod-12.westeurope.logic.azure.com:443/workflows/3f1c9a2b7d4e/triggers/manual/paths/invoke?api-version=2016-06-01&sig=Qx7pLm2',
      notesReady: true,
    },
    response: { ...teamsConnection, lastPostAt: null },
  },
  disconnect: { response: { ok: true } },
  test: {
    body: {},
    response: {
      ...teamsConnection,
      lastPostAt: null,
      lastError: 'The workflow answered 401: check that the webhook URL is complete.',
      lastErrorAt: '2026-12-07T15:33:00.000Z',
    },
  },
};

const teamsAccount = {
  available: true,
  redirectUri: 'https://parley.example.com/settings/connections/microsoft',
  connected: true,
  account: 'maya@acme.example',
  needsReconnect: false,
  lastSyncedAt: '2026-12-07T15:00:00.000Z',
  lastError: null,
  importedCount: 18,
  lastImported: 2,
  sync: null,
} as const;

export const teamsSyncExamples: ExamplesOf<typeof teamsSyncEndpoints> = {
  get: { response: teamsAccount },
  start: {
    response: {
      authorizationUrl:
        'https://login.microsoftonline.com/common/oauth2/v2.0/authorize?client_id=00000000-0000-0000-0000-000000000000&response_type=code&scope=OnlineMeetings.Read%20OnlineMeetingTranscript.Read.All%20OnlineMeetingRecording.Read.All%20Calendars.Read%20offline_access&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256&state=st_Mk3pQ1',
    },
  },
  finish: {
    body: { state: 'st_Mk3pQ1', code: '0.AXEA7q2kTq9ZrXw' },
    response: { ...teamsAccount, importedCount: 0, lastImported: 0, lastSyncedAt: null, sync: { state: 'queued', stage: 'queued', part: null, parts: null } },
  },
  sync: { response: { ...teamsAccount, sync: { state: 'running', stage: 'importing', part: 1, parts: 3 } } },
  disconnect: { response: { ...teamsAccount, connected: false, account: null, lastSyncedAt: null, sync: null } },
};

const webhook = {
  id: ids.webhook,
  url: 'https://hooks.example.com/parley',
  description: 'CRM sync',
  events: ['notes.ready', 'action_item.created'],
  teamId: null,
  enabled: true,
  disabledReason: null,
  previousSecretExpiresAt: null,
  createdAt: '2026-12-03T11:20:00.000Z',
} as const;

const webhookEndpoint = { ...webhook, events: [...webhook.events] };

const delivery = {
  id: 'msg_2ZpK6Y0vQm3xL8c1',
  eventType: 'notes.ready',
  status: 'retrying',
  attempts: 2,
  responseCode: 503,
  error: 'The endpoint answered 503 Service Unavailable.',
  createdAt: '2026-12-07T09:14:02.118Z',
  lastAttemptAt: '2026-12-07T09:19:03.540Z',
  nextAttemptAt: '2026-12-07T09:49:03.540Z',
} as const;

export const webhookExamples: ExamplesOf<typeof webhookEndpoints> = {
  create: {
    body: { url: 'https://hooks.example.com/parley', events: ['notes.ready', 'action_item.created'], description: 'CRM sync' },
    response: { id: ids.webhook, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
  },
  list: { response: { endpoints: [webhookEndpoint] } },
  update: {
    body: { events: ['notes.ready', 'action_item.created', 'action_item.completed'], enabled: true },
    response: { ...webhookEndpoint, events: ['notes.ready', 'action_item.created', 'action_item.completed'] },
  },
  remove: { response: { ok: true } },
  rotateSecret: { response: { secret: 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD', previousSecretExpiresAt: '2026-12-08T15:35:00.000Z' } },
  test: {
    response: {
      ...delivery,
      id: 'msg_2ZpK7aN4wR5tY9d3',
      eventType: 'webhook.test',
      status: 'pending',
      attempts: 0,
      responseCode: null,
      error: null,
      lastAttemptAt: null,
      nextAttemptAt: '2026-12-07T15:35:00.000Z',
    },
  },
  deliveries: { response: { deliveries: [delivery] } },
  redeliver: { response: { ...delivery, status: 'pending', nextAttemptAt: '2026-12-07T15:36:00.000Z' } },
};
