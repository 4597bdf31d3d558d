import type { apiTokenEndpoints } from '#shared/contracts/api-tokens.ts';
import type { billingEndpoints } from '#shared/contracts/billing.ts';
import type { dataExportEndpoints } from '#shared/contracts/data-export.ts';
import type { errorReportEndpoints } from '#shared/contracts/error-reports.ts';
import type { meEndpoints } from '#shared/contracts/me.ts';
import type { notificationEndpoints } from '#shared/contracts/notifications.ts';
import { NOTIFICATION_DEFAULTS, PRIVACY_DEFAULTS, RECORDING_DEFAULTS, type settingsEndpoints } from '#shared/contracts/settings.ts';
import type { statusEndpoints } from '#shared/contracts/status.ts';
import type { vocabularyEndpoints } from '#shared/contracts/vocabulary.ts';
import type { ExamplesOf } from './example-types.ts';
import { ids, MEETING_TITLE } from './fixtures.ts';

export const meExamples: ExamplesOf<typeof meEndpoints> = {
  get: {
    response: {
      id: ids.maya,
      email: 'maya@example.com',
      fullName: 'Maya Chen',
      emailConfirmed: true,
      aal: 'aal2',
      createdAt: '2026-09-14T08:21:40.000Z',
      firstVisit: false,
    },
  },
  setAvatar: {
    body: { image: 'UklGRiQAAABXRUJQVlA4IBgAAAAwAQCdASoBAAEAAwA0JaQAA3AA/vuUAAA=' },
    response: { avatarUrl: `/api/v1/avatars/${ids.maya}?v=1765116000` },
  },
  avatar: {},
  deleteData: { body: { email: 'maya@example.com' }, response: { deletedMeetings: 42 } },
  deleteAccount: { body: { email: 'maya@example.com', password: 'correct horse battery staple' }, response: { deletedMeetings: 42 } },
};

const runningExport = {
  id: ids.dataExport,
  status: 'running',
  progress: 0.35,
  bytes: null,
  failureReason: null,
  createdAt: '2026-12-07T15:20:00.000Z',
  readyAt: null,
  expiresAt: null,
} as const;

export const dataExportExamples: ExamplesOf<typeof dataExportEndpoints> = {
  request: { response: { ...runningExport, status: 'queued', progress: null } },
  latest: {
    response: {
      export: {
        ...runningExport,
        status: 'ready',
        progress: 1,
        bytes: 734_003_200,
        readyAt: '2026-12-07T15:24:31.000Z',
        expiresAt: '2026-12-14T15:24:31.000Z',
      },
    },
  },
  download: {},
};

export const errorReportExamples: ExamplesOf<typeof errorReportEndpoints> = {
  send: {
    body: {
      kind: 'render',
      name: 'TypeError',
      message: "Cannot read properties of undefined (reading 'segments')",
      stack: "TypeError: Cannot read properties of undefined (reading 'segments')\n    at TranscriptView (/assets/meeting-B4x1.js:1:2048)",
      page: '/meetings/:id',
    },
    response: { sent: true },
  },
};

const settings = {
  settings: {
    notifications: NOTIFICATION_DEFAULTS,
    recording: RECORDING_DEFAULTS,
    privacy: PRIVACY_DEFAULTS,
    billing: {
      name: 'Maya Chen',
      email: 'billing@acme.example',
      company: 'Acme Corp',
      address: '1 Market Street',
      city: 'San Francisco',
      state: 'CA',
      zip: '94105',
      country: 'US',
    },
  },
  savedTabs: ['notifications', 'billing'],
} as const;

const settingsResponse = { ...settings, savedTabs: [...settings.savedTabs] };

export const settingsExamples: ExamplesOf<typeof settingsEndpoints> = {
  get: { response: settingsResponse },
  notifications: {
    body: { teamActivity: true, productUpdates: false },
    response: {
      ...settingsResponse,
      settings: { ...settings.settings, notifications: { ...NOTIFICATION_DEFAULTS, teamActivity: true, productUpdates: false } },
    },
  },
  recording: {
    body: { quality: 'ultra', format: 'wav' },
    response: {
      settings: { ...settings.settings, recording: { ...RECORDING_DEFAULTS, quality: 'ultra', format: 'wav' } },
      savedTabs: ['notifications', 'recording', 'billing'],
    },
  },
  privacy: {
    body: { autoDelete: '1year' },
    response: { settings: { ...settings.settings, privacy: { ...PRIVACY_DEFAULTS, autoDelete: '1year' } }, savedTabs: ['notifications', 'privacy', 'billing'] },
  },
  billing: { body: { company: 'Acme Corp', country: 'US' }, response: settingsResponse },
};

const overview = {
  billing: true,
  plan: {
    id: 'pro',
    name: 'Pro',
    source: 'subscription',
    limits: {
      hoursPerMonth: 30,
      participantsPerMeeting: null,
      exportFormats: ['txt', 'docx', 'pdf'],
      historyDays: 30,
      liveTranscription: true,
      apiAccess: false,
      teamManagement: false,
      customVocabulary: true,
    },
  },
  subscription: {
    plan: 'pro',
    planName: 'Pro',
    status: 'active',
    trialEndsAt: null,
    currentPeriodEnd: '2027-01-03T00:00:00.000Z',
    cancelAtPeriodEnd: false,
    keptPlan: null,
  },
  trialAvailable: false,
  paymentFailure: null,
  usage: {
    hoursThisMonth: 6.4,
    meetingsThisMonth: 11,
    periodStart: '2026-12-01T00:00:00.000Z',
    periodEnd: '2027-01-01T00:00:00.000Z',
    hiddenMeetings: 0,
  },
} as const;

const billingOverview = {
  ...overview,
  plan: { ...overview.plan, limits: { ...overview.plan.limits, exportFormats: [...overview.plan.limits.exportFormats] } },
};

export const billingExamples: ExamplesOf<typeof billingEndpoints> = {
  overview: { response: billingOverview },
  checkout: { body: { plan: 'business' }, response: { url: 'https://checkout.stripe.com/c/pay/cs_test_a1B2c3D4e5F6g7H8' } },
  portal: { response: { url: 'https://billing.stripe.com/p/session/test_YWNjdF8xTjJ3' } },
  changePlan: {
    body: { plan: 'business' },
    response: {
      ...billingOverview,
      plan: {
        id: 'business',
        name: 'Business',
        source: 'subscription',
        limits: {
          ...billingOverview.plan.limits,
          hoursPerMonth: 100,
          exportFormats: ['txt', 'md', 'docx', 'pdf', 'srt', 'vtt'],
          historyDays: 365,
          apiAccess: true,
          teamManagement: true,
        },
      },
      subscription: { ...billingOverview.subscription, plan: 'business', planName: 'Business' },
    },
  },
  cancel: { response: { ...billingOverview, subscription: { ...billingOverview.subscription, cancelAtPeriodEnd: true } } },
};

export const notificationExamples: ExamplesOf<typeof notificationEndpoints> = {
  list: {
    response: {
      items: [
        {
          id: ids.notification,
          kind: 'action_item',
          title: 'New action item for you',
          body: `Draft the onboarding checklist — ${MEETING_TITLE}, due Friday`,
          link: `/meetings/${ids.meeting}?t=754`,
          createdAt: '2026-12-07T14:33:41.000Z',
          readAt: null,
        },
      ],
      unreadCount: 1,
    },
  },
  markRead: { body: { ids: [ids.notification] }, response: { unreadCount: 0 } },
  unsubscribePage: {},
  unsubscribe: {},
};

export const statusExamples: ExamplesOf<typeof statusEndpoints> = {
  get: {
    response: {
      transcription: {
        setting: 'auto',
        inUse: 'sherpa-onnx',
        engines: [
          { name: 'sherpa-onnx', detail: 'Whisper small.en, on this server', available: true, reason: null, inUse: true },
          { name: 'openai', detail: 'OpenAI speech to text', available: false, reason: 'OPENAI_API_KEY is not set.', inUse: false },
        ],
        models: [
          {
            name: 'whisper-small-en',
            kind: 'asr',
            description: 'Whisper small (English)',
            bytes: 375_000_000,
            checksum: 'pinned',
            installedAt: '2026-11-02T10:00:00.000Z',
          },
        ],
        voiceActivityDetection: { available: true, source: 'bundled', reason: null },
        queue: { queued: 1, running: 1 },
        autoModels: { state: 'installed', message: null, downloads: [] },
        betterTranscripts: null,
      },
      notes: {
        setting: 'auto',
        inUse: 'llm',
        engines: [
          { name: 'local', detail: 'Rules and statistics on this server', available: true, reason: null, inUse: false },
          { name: 'llm', detail: 'gpt-4o-mini through an OpenAI-compatible API', available: true, reason: null, inUse: true },
        ],
        queue: { queued: 0, running: 0 },
      },
      database: { ok: true, reason: null, checkedAt: '2026-12-07T15:30:00.000Z' },
      bestEffortFailures: {},
      eventDeliveries: { pending: 0, dead: 0 },
      process: { role: 'all', eventLoopDelayMs: { p50: 10.2, p99: 14.8, max: 41.3 }, rssBytes: 412_000_000, uptimeSeconds: 86_400 },
    },
  },
};

const vocabulary = {
  terms: ['Acme', 'SSO', 'Kubernetes'],
  teams: [{ teamId: ids.team, teamName: 'Customer Success', role: 'admin', terms: ['Zendesk', 'NPS'], canEdit: true }],
  included: true,
  note: 'Custom vocabulary is included in your Pro plan.',
} as const;

const vocabularyResponse = { ...vocabulary, terms: [...vocabulary.terms], teams: [{ ...vocabulary.teams[0], terms: [...vocabulary.teams[0].terms] }] };

export const vocabularyExamples: ExamplesOf<typeof vocabularyEndpoints> = {
  get: { response: vocabularyResponse },
  save: { body: { terms: ['Acme', 'SSO', 'Kubernetes'] }, response: vocabularyResponse },
  saveTeam: { body: { terms: ['Zendesk', 'NPS'] }, response: vocabularyResponse },
};

export const apiTokenExamples: ExamplesOf<typeof apiTokenEndpoints> = {
  create: {
    body: { name: 'Zapier export', scopes: ['read'], expiresAt: '2027-06-30T00:00:00Z' },
    response: { id: ids.apiToken, token: 'prly_3q2XbT9vKcLw8nRzYp4mA6sD1fGhJkQe' },
  },
  list: {
    response: {
      tokens: [
        {
          id: ids.apiToken,
          name: 'Zapier export',
          scopes: ['read'],
          preview: 'prly_3q2X',
          createdAt: '2026-12-01T09:00:00.000Z',
          expiresAt: '2027-06-30T00:00:00.000Z',
          lastUsedAt: '2026-12-07T15:01:44.000Z',
        },
      ],
    },
  },
  revoke: { response: { ok: true } },
};
