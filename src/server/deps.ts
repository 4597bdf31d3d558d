/**
 * Composition root: builds every long-lived dependency once from the config — database, blob store,
 * logger, clock, mailer, realtime hub, job queue, speech engines, speaker identifier and the
 * features' services — and wires the hand-offs between features as named ports. `buildApp` only
 * registers routes over these; a worker process (ROLE=worker) uses them without any HTTP. Tests
 * pass their own database, engines or clock and get the same wiring as production.
 */
import type { FastifyBaseLogger as Logger } from 'fastify';
import { pino } from 'pino';
import type { Config, Role } from './config.ts';
import { createDb, type DbHandle } from './db/create-db.ts';
import { currentSchema } from './db/dialect.ts';
import { checkDatabaseIntegrity, pingDatabase, type DatabaseIntegrity } from './db/integrity.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createApiTokensService, type ApiTokensService } from './features/api-tokens/api-tokens.service.ts';
import { createAskService, type AskService } from './features/ask/ask.service.ts';
import { createBillingService, type BillingService } from './features/billing/billing.service.ts';
import { createStripeGateway } from './features/billing/stripe-gateway.ts';
import { subscribeBilling } from './features/billing/billing.subscribers.ts';
import { createEmbeddingsClient } from './features/ask/embeddings-client.ts';
import { createAccountService, type AccountService, type BeforeAccountDeleted } from './features/account/account.service.ts';
import { createAvatarStore, type AvatarStore } from './features/account/avatars.ts';
import { createCalendarService, type CalendarService } from './features/calendar/calendar.service.ts';
import { createAuthModule, type AuthModule } from './features/auth/auth.module.ts';
import { createDataExportService, type DataExportService } from './features/data-export/data-export.service.ts';
import { createEmotionService } from './features/emotion/emotion.service.ts';
import { subscribeEmotion } from './features/emotion/emotion.subscribers.ts';
import { createMailer, type Mailer } from './features/auth/mailer.ts';
import { createPeople } from './features/auth/people.ts';
import { createInsightsService, type InsightsService } from './features/insights/insights.service.ts';
import { createMeetingsService, type MeetingsService } from './features/meetings/meetings.service.ts';
import { createNotesEngines } from './features/notes/engines/select-notes-engine.ts';
import { createChatClient, createNotesService, type NotesService } from './features/notes/notes.service.ts';
import { createNotificationsService, type NotificationsService } from './features/notifications/notifications.service.ts';
import { createUnsubscribeTokens } from './features/notifications/unsubscribe-token.ts';
import type { UploadStore } from './features/recordings/upload-store.ts';
import { createUploadSweeper, type UploadSweeper } from './features/recordings/upload-sweeper.ts';
import { createUploadStore } from './features/recordings/uploads.plugin.ts';
import { createSamplesService, type SamplesService } from './features/samples/samples.service.ts';
import { subscribeSamples } from './features/samples/samples.subscribers.ts';
import { createRealtimeHub, type RealtimeHub } from './lib/realtime/realtime-hub.ts';
import { createPostgresTransport } from './lib/realtime/realtime-postgres.ts';
import { createAutoDeleteSweeper, type AutoDeleteSweeper } from './features/settings/auto-delete.ts';
import { createSettingsService, type SettingsService } from './features/settings/settings.service.ts';
import { createSharingService, type SharingService } from './features/sharing/sharing.service.ts';
import { createSlackService, type SlackService } from './features/slack/slack.service.ts';
import { subscribeSlack } from './features/slack/slack.subscribers.ts';
import { createMicrosoftTeamsService, type MicrosoftTeamsService } from './features/microsoft-teams/microsoft-teams.service.ts';
import { subscribeMicrosoftTeams } from './features/microsoft-teams/microsoft-teams.subscribers.ts';
import { createTeamsSyncService, type TeamsSyncService } from './features/teams-sync/teams-sync.service.ts';
import { createRecordingsService } from './features/recordings/recordings.service.ts';
import { createDigests } from './lib/chat-channels/notes-digest.ts';
import { outboundFetch, type OutboundInit } from './lib/outbound/outbound-fetch.ts';
import { createSlackApp } from './features/slack/slack-app.ts';
import { createTeamsService, type TeamsService } from './features/teams/teams.service.ts';
import { createTelemetryService, type TelemetryService } from './features/telemetry/telemetry.service.ts';
import type { TranscriptionEngine } from './features/transcription/engines/engine.ts';
import { createEngineRegistry, type EngineRegistry } from './features/transcription/engines/select-engine.ts';
import { createSpeakerIdentifier, type SpeakerIdentifier } from './features/transcription/speakers/identify-speakers.ts';
import { createAutoModels, missingRecommendedModels } from './features/transcription/models/auto-models.ts';
import type { CatalogEntry } from './features/transcription/models/catalog.ts';
import { createTranscriptionService, type TranscriptionService } from './features/transcription/transcription.service.ts';
import { createVocabularyService, type VocabularyService } from './features/vocabulary/vocabulary.service.ts';
import { subscribeTranscription } from './features/transcription/transcription.subscribers.ts';
import { subscribeAsk } from './features/ask/ask.subscribers.ts';
import { subscribeNotes } from './features/notes/notes.subscribers.ts';
import { subscribeNotifications } from './features/notifications/notifications.subscribers.ts';
import { subscribeTeams } from './features/teams/teams.subscribers.ts';
import { subscribeMeetings } from './features/meetings/meetings.subscribers.ts';
import { subscribeWebhooks } from './features/webhooks/webhooks.subscribers.ts';
import { createVoiceProfilesService, type VoiceProfilesService } from './features/voice-profiles/voice-profiles.service.ts';
import { subscribeVoiceProfiles } from './features/voice-profiles/voice-profiles.subscribers.ts';
import { createWebhooksService, type WebhookTimings, type WebhooksService } from './features/webhooks/webhooks.service.ts';
import { createDomainEvents, type DomainEvents } from './events/domain-events.ts';
import type { StageLimits } from './features/transcription/stage-limits.ts';
import { createJobQueue, type JobQueueTimings } from './jobs/create-job-queue.ts';
import { withFailureReports } from './jobs/failure-reports.ts';
import type { JobQueue } from './jobs/job-queue.ts';
import { createLocalBlobStore, type BlobStore } from './lib/blob-store.ts';
import { bestEffort, failedBestEffort } from './lib/best-effort.ts';
import { createBlobLedger } from './lib/blobs.repository.ts';
import { createS3BlobStore } from './lib/s3-blob-store.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { loggerOptions } from './lib/logger.ts';
import { tightenTree } from './lib/private-files.ts';
import { createMemoryRateLimiters, createRedisRateLimiters, type RateLimiters } from './lib/rate-limit.ts';
import { connectRedis } from './lib/redis.ts';
import { createMemoryUploadLocker, createRedisUploadLocker, type UploadLockTimings } from './lib/upload-locks.ts';
import type { ReadinessCheck } from './lib/readiness.ts';
import { createAudioLinks, type AudioLinks } from './features/meetings/audio-link.ts';
import { createSecretBox, isSealed, loadSecretKey } from './lib/secret-box.ts';

export type Services = {
  account: AccountService;
  /** Settings › Developers' personal API tokens, checked by the /api/v1 guard. */
  apiTokens: ApiTokensService;
  ask: AskService;
  /** Plans and their limits (Settings › Billing): what each account may use, and this month's usage. */
  billing: BillingService;
  /** Profile pictures (Settings › Profile "Change"), resized with sharp. */
  avatars: AvatarStore;
  /** Settings › Connected Accounts › Google Calendar: a calendar by ICS address or Google, its upcoming events on the dashboard. */
  calendar: CalendarService;
  dataExport: DataExportService;
  meetings: MeetingsService;
  /** Microsoft Teams: notes posted to a channel through a Workflows webhook. */
  microsoftTeams: MicrosoftTeamsService;
  notes: NotesService;
  /** Settings › Notifications acted on: emails with unsubscribe links, the daily digest, the bell's notifications. */
  notifications: NotificationsService;
  samples: SamplesService;
  transcription: TranscriptionService;
  sharing: SharingService;
  settings: SettingsService;
  /** Slack: notes posted to a channel when ready, and Share to Slack. */
  slack: SlackService;
  insights: InsightsService;
  teams: TeamsService;
  /** Microsoft Teams: a connected Microsoft account's meeting transcripts imported every hour (Graph). */
  teamsSync: TeamsSyncService;
  /** Custom vocabulary (Settings › Recording, per team): given to transcription and the notes. */
  vocabulary: VocabularyService;
  /** What leaves the installation with the person's consent: their errors (SENTRY_DSN) and feature usage (OTLP). */
  telemetry: TelemetryService;
  /** Settings › Developers' outgoing webhooks (Standard Webhooks), a subscriber of the domain events. */
  webhooks: WebhooksService;
  /** Voice profiles: people's voices kept with their consent, and later meetings' speakers named from them. */
  voiceProfiles: VoiceProfilesService;
};

export type Deps = {
  config: Config;
  /** What this process does (ROLE): serve HTTP, work the job queue, or both. */
  role: Role;
  log: Logger;
  clock: Clock;
  database: DbHandle;
  /** The start-up integrity check of the database, reported by /healthz and /status. */
  integrity: DatabaseIntegrity;
  /** What /readyz asks: each dependency this process needs (database, Redis when configured), checked live. */
  readiness: readonly ReadinessCheck[];
  blobs: BlobStore;
  /** Short-lived links to a meeting's recording for the player (sealed with the installation key). */
  audioLinks: AudioLinks;
  /** Unfinished audio uploads (tus), and the worker's sweep of expired and orphaned ones. */
  uploads: { store: UploadStore; sweeper: UploadSweeper };
  mailer: Mailer;
  realtime: RealtimeHub;
  /** The one rate-limit port: auth's limits, Ask's questions and the live transcript's paused time count here. */
  rateLimiters: RateLimiters;
  jobs: JobQueue;
  /** Domain events: recorded with each change, delivered to the features that subscribe (through the job queue). */
  events: DomainEvents;
  /** The installation's engines (the status page), the engine jobs transcribe with, and the speaker identifier. */
  speech: { engines: EngineRegistry; engine: TranscriptionEngine; speakers: SpeakerIdentifier };
  auth: AuthModule;
  services: Services;
  /** Version string reported by health endpoints and the web app. */
  version: string;
  /** Starts the background work of this role: job workers, the orphan sweeps, upload expiry, auto-delete. */
  start: () => Promise<void>;
  /** Hands running jobs back and closes engines, connections and the database. */
  close: () => Promise<void>;
};

type CreateDepsOptions = {
  database?: DbHandle;
  version?: string;
  /** Replaces ROLE (tests of a web-only or worker-only process on SQLite). */
  role?: Role;
  clock?: Clock;
  /** Replaces the engine jobs transcribe with or the speaker identifier (tests not about transcription). */
  speech?: Partial<Pick<Deps['speech'], 'engine' | 'speakers'>>;
  jobTimings?: JobQueueTimings;
  /** Tries per event delivery and the first retry's wait (tests of a delivery that keeps failing). */
  eventDelivery?: { maxAttempts?: number; retryDelayMs?: number };
  /** Transcription stages' time limits (tests of a stage that runs past its limit). */
  stageLimits?: StageLimits;
  /** The catalog the first start's model download chooses from (tests serve stand-in models). */
  modelCatalog?: readonly CatalogEntry[];
  /** Webhook retry schedule, sweep and disabling times (tests of retries run in milliseconds). */
  webhookTimings?: WebhookTimings;
  /** The time limit of requests to other services (tests of a service that never answers). */
  outboundTimeoutMs?: number;
  /** How long an upload's lock is waited for and (Redis) leased (tests of a holder that never lets go). */
  uploadLockTimings?: UploadLockTimings;
  /** Checks that may refuse an account's deletion (tests of the port; teams plugs in here). */
  beforeAccountDeleted?: BeforeAccountDeleted[];
};

export async function createDeps(config: Config, options: CreateDepsOptions = {}): Promise<Deps> {
  const log = pino(loggerOptions(config.logLevel));
  const role = options.role ?? config.role;
  const clock = options.clock ?? systemClock;
  const now = () => clock.now();
  // The data folder 0700 and everything in it 0600, before anything is written there.
  tightenTree(config.dataDir);
  const secretKey = loadSecretKey(config);
  const secrets = createSecretBox(secretKey);
  const database = options.database ?? createDb(config.db);
  /** A database handed in (tests) is closed by whoever opened it. */
  const ownsDatabase = options.database === undefined;
  await migrateToLatest(database.db, { sealer: { seal: secrets.seal, isSealed } });
  const integrity = await checkDatabaseIntegrity(database, now);
  if (!integrity.ok) log.error({ reason: integrity.reason }, 'the database is damaged: /healthz answers 503 until it is repaired and the server restarted');
  const db = database.db;
  const ledger = createBlobLedger(db, now);
  const s3 = config.storage.kind === 's3' ? createS3BlobStore(config.storage, ledger) : undefined;
  const blobs = s3 ?? createLocalBlobStore(config.dataDir, ledger);
  const audioLinks = createAudioLinks(secrets, now);
  const mailer = createMailer(config, log);

  const transport =
    database.dialect === 'postgres' && database.url
      ? await createPostgresTransport({ url: database.url, channel: await realtimeChannel(database), log })
      : undefined;
  const realtime = createRealtimeHub(transport);
  const redis = config.redis ? await connectRedis(config.redis.url, log) : undefined;
  const rateLimiters = redis && config.redis ? createRedisRateLimiters(redis, config.redis.keyPrefix) : createMemoryRateLimiters();
  // One request at a time per upload: in this process's memory, or in Redis so that every web
  // process behind a load balancer waits for the others.
  const uploadLocker =
    redis && config.redis
      ? await createRedisUploadLocker(redis, config.redis.keyPrefix, log, options.uploadLockTimings)
      : createMemoryUploadLocker(options.uploadLockTimings);
  // A person's jobs that fail for good are reported as their errors (telemetry, built below with the settings it reads).
  const jobs = withFailureReports(await createJobQueue(database, log, options.jobTimings), (queue, payload, error) =>
    telemetry.jobFailed(queue, payload, error),
  );
  const events = createDomainEvents({ db, jobs, log, now, ...options.eventDelivery });
  const people = createPeople(db);

  const engines = createEngineRegistry(config);
  const engine = options.speech?.engine ?? engines.engine;
  const speakers =
    options.speech?.speakers ??
    createSpeakerIdentifier({
      method: config.transcription.speakers,
      modelsDir: config.models.dir,
      onFallback: (reason) => failedBestEffort('speaker-diarization', new Error(reason), log),
    });

  // The recommended models this installation would use and lacks (fetched at first start, named on /status).
  const setting = config.transcription.engine;
  const wantedModels = () =>
    missingRecommendedModels({
      modelsDir: config.models.dir,
      wantsSpeechModel: (setting === 'auto' && !config.transcription.openai) || setting === 'sherpa-onnx',
      speechModel: config.transcription.sherpaModel,
      wantsSpeakerModels: config.transcription.speakers !== 'clustering',
      catalog: options.modelCatalog,
    });
  const autoModels = createAutoModels({
    modelsDir: config.models.dir,
    baseUrl: config.models.baseUrl,
    enabled: config.models.auto,
    wanted: wantedModels,
    log,
    // Loading the new models is what switches: `auto` takes sherpa-onnx once its model loads.
    switchEngines: async () => {
      const { engine: inUse, availability } = await engines.resolve();
      const model = inUse === engines.sherpa ? engines.sherpa.selectedModel()?.manifest.name : undefined;
      const { method } = await speakers.status();
      return `Transcripts now use ${inUse.name}${model ? ` (model ${model})` : ''}${availability.available ? '' : ` (unavailable: ${availability.reason})`}; speakers are told apart by ${method}.`;
    },
  });
  let autoModelsRun: Promise<void> | undefined;

  const uploadStore = await createUploadStore(config, blobs, uploadLocker, s3?.client);
  // Teams and meetings ask each other (who belongs to a team; a member's meeting counts): each gets
  // the other's port, the teams' meeting reads called only once both exist.
  const teams = createTeamsService({
    db,
    profilesOf: people.profilesOf,
    meetings: {
      teamMemberCounts: (teamId, members) => meetings.teamMemberCounts(teamId, members),
      peopleRecording: (ids) => meetings.peopleRecording(ids),
      sharedWithTeam: (teamId, ids) => meetings.sharedWithTeam(teamId, ids),
    },
    sendEmail: (email) => mailer.send({ kind: 'team_invitation', ...email }),
    events,
    secrets,
    publicUrl: config.publicUrl,
    now,
    realtime,
    log,
    // Called only once a request runs, when the meetings service below exists.
    membersLeft: (userIds) => meetings.readersLeft(userIds),
    rateLimiters,
    emailLimits: { frequencySeconds: config.auth.emailFrequencySeconds, perHour: config.auth.emailRateLimitPerHour, enabled: config.auth.rateLimits },
  });
  const meetings = createMeetingsService({
    db,
    reads: database.reads,
    blobs,
    storageQuotaBytes: config.uploads.quotaBytes,
    discardUploads: async (ids) => {
      await Promise.all(ids.map((id) => uploadStore.discard(id)));
    },
    teams: {
      teamIdsOf: teams.teamIdsOf,
      memberIdsOf: teams.memberIdsOf,
      recordActivity: teams.recordActivity,
      teamChanged: teams.teamChanged,
      availabilityChanged: teams.availabilityChanged,
    },
    namesOf: people.namesOf,
    realtime,
    log,
    events,
    // Called only once a request runs, when the billing and vocabulary services below exist.
    historySince: (userId) => billing.historySince(userId),
    vocabularyOf: (meeting) => vocabulary.forMeeting(meeting),
    usage: {
      assertCanTranscribe: (userId) => billing.assertCanTranscribe(userId),
      counted: (trx, entry) => billing.usage.counted(trx, entry),
      givenBack: (trx, meetingId) => billing.usage.givenBack(trx, meetingId),
    },
  });
  const billing = createBillingService({
    db,
    meetings: { countAddedSince: meetings.countAddedSince, countAddedBefore: meetings.countAddedBefore },
    stripe: config.stripe && {
      gateway: createStripeGateway(config.stripe, config.outbound, log),
      prices: config.stripe.prices,
      // Called only once a request runs, when the settings service below exists.
      detailsOf: async (userId) => {
        const account = await people.accountOf(userId);
        return (await settings.get({ id: userId, name: account?.fullName ?? null, email: account?.email ?? null })).settings.billing;
      },
      returnUrl: `${config.publicUrl}/settings?tab=billing`,
      events,
      sendEmail: (email) => mailer.send({ kind: 'billing', ...email }),
    },
    now,
    log,
  });

  const settings = createSettingsService({ db, timeZoneOf: people.timeZoneOf, events });
  const vocabulary = createVocabularyService({ db, teams, billing, now });
  const telemetry = createTelemetryService({ config: config.telemetry, version: options.version ?? VERSION, privacyOf: settings.privacyOf, log });
  // Settings › Notifications acted on: the transcription, notes and teams features hand their events over (ports below).
  const notifications = createNotificationsService({
    db,
    jobs,
    realtime,
    sendEmail: (email) => mailer.send(email),
    settings,
    profilesOf: people.profilesOf,
    userIdOfEmail: people.userIdOfEmail,
    meetings,
    teams,
    // Called only when a reminder is delivered, when the calendar service below exists.
    upcomingEvent: (userId, eventId) => calendar.upcomingEvent(userId, eventId),
    unsubscribeTokens: createUnsubscribeTokens(secretKey),
    publicUrl: config.publicUrl,
    now,
    log,
  });
  const notesEngines = createNotesEngines(config);
  const notes = createNotesService({
    db,
    jobs,
    meetings,
    engines: notesEngines,
    log,
    now,
    timeZoneOf: people.timeZoneOf,
    automaticNotesOf: settings.automaticNotes,
    vocabularyOf: vocabulary.forMeeting,
    events,
    maxAttempts: config.notes.maxAttempts,
    retryDelayMs: config.notes.retryDelaySeconds * 1000,
  });
  // Ask answers with the notes' LLM unless the installation chose local notes (NOTES_ENGINE=local).
  const askLlm = config.notes.engine === 'local' ? undefined : config.notes.llm;
  const ask = createAskService({
    db,
    jobs,
    meetings,
    notesOf: notes.itemsForAsk,
    log,
    rateLimiters,
    rateLimit: { points: config.ask.questionsPerMinute, duration: 60 },
    llmSteps: { rewrite: config.ask.llmRewrite, rerank: config.ask.llmRerank },
    chat:
      askLlm &&
      createChatClient({ url: askLlm.url, apiKey: askLlm.apiKey, model: askLlm.model, timeoutMs: askLlm.timeoutSeconds * 1000, retry: { maxRetries: 1 } }),
    embeddings:
      config.ask.embeddings &&
      createEmbeddingsClient({
        url: config.ask.embeddings.url,
        apiKey: config.ask.embeddings.apiKey,
        model: config.ask.embeddings.model,
        timeoutMs: config.ask.embeddings.timeoutSeconds * 1000,
      }),
  });
  const transcription = createTranscriptionService({
    jobs,
    events,
    meetings,
    blobs,
    engines,
    engine,
    modelsDir: config.models.dir,
    autoModels: { enabled: config.models.auto, wanted: wantedModels },
    identifySpeakers: speakers.identify,
    speakerWindows: speakers.windowed,
    voices: speakers,
    // Known voices named before a transcript is stored (so its notes are written with the names);
    // called only once jobs run, when the voice-profiles service below exists.
    nameKnownVoices: (meeting, describe) => voiceProfiles.nameKnownVoices(meeting, describe),
    settingsOf: settings.pipeline,
    vocabularyOf: vocabulary.forMeeting,
    log,
    maxAttempts: config.transcription.maxAttempts,
    concurrency: config.transcription.concurrency,
    retryDelayMs: config.transcription.retryDelaySeconds * 1000,
    maxRecordingHours: config.transcription.maxRecordingHours,
    stageLimits: options.stageLimits,
  });
  // "Anonymous Emotional Analysis" by the operator's provider, when one is configured: the notes'
  // OpenAI-compatible client, its requests through the outbound guard (an endpoint the operator chose
  // may be on the private network; cloud metadata never).
  const emotionProvider = config.emotion;
  const emotion =
    emotionProvider &&
    createEmotionService({
      db,
      jobs,
      meetings,
      provider: {
        host: emotionProvider.host,
        model: emotionProvider.model,
        chat: createChatClient({
          url: emotionProvider.url,
          apiKey: emotionProvider.apiKey,
          model: emotionProvider.model,
          timeoutMs: emotionProvider.timeoutSeconds * 1000,
          retry: { maxRetries: 1 },
          fetch: ((url: string | URL, init?: RequestInit) =>
            outboundFetch(String(url), init as OutboundInit, {
              allowPrivateNetworks: true,
              timeoutMs: emotionProvider.timeoutSeconds * 1000,
            })) as typeof fetch,
        }),
      },
      log,
    });
  if (emotion) subscribeEmotion(events, emotion);
  // What follows a change in another feature: each subscribes in its own folder.
  subscribeTranscription(events, transcription);
  subscribeNotes(events, notes);
  subscribeAsk(events, ask);
  subscribeTeams(events, teams);
  subscribeMeetings(events, meetings);
  // Billing Information follows to the Stripe customer (only where Stripe is configured).
  if (config.stripe) subscribeBilling(events, billing);
  subscribeNotifications(events, notifications, teams);
  const voiceProfiles = createVoiceProfilesService({
    db,
    meetings,
    transcription,
    teams,
    profilesOf: people.profilesOf,
    events,
    rateLimiters,
    jobs,
    maxAttempts: config.transcription.maxAttempts,
    retryDelayMs: config.transcription.retryDelaySeconds * 1000,
    now,
    log,
  });
  subscribeVoiceProfiles(events, voiceProfiles);
  const webhooks = createWebhooksService({
    db,
    jobs,
    secrets,
    allowPrivateNetworks: config.outbound.allowPrivateNetworks,
    teams: { assertManager: teams.assertManager, managedTeamIdsOf: teams.managedTeamIdsOf },
    notifyDisabled: notifications.integrationFailed,
    publicUrl: config.publicUrl,
    now,
    log,
    timings: options.webhookTimings,
  });
  subscribeWebhooks(events, webhooks);
  const sharing = createSharingService({ db, meetings, notes });
  // Slack and Teams channels: a meeting's notes read as its owner (or the sharer) may read them.
  const digestOf = createDigests({
    meeting: meetings.read,
    insights: notes.ofMeeting,
    shareToken: async (ownerId, meetingId) => {
      const created = await sharing.create(ownerId, meetingId);
      return created.kind === 'created' ? created.token : undefined;
    },
    timeZoneOf: people.timeZoneOf,
    publicUrl: config.publicUrl,
  });
  // Every request to Slack or Teams goes through the outbound URL guard (addresses checked as it connects).
  const outboundPolicy = { ...config.outbound, ...(options.outboundTimeoutMs ? { timeoutMs: options.outboundTimeoutMs } : {}) };
  const outbound = (url: string, init: Parameters<typeof outboundFetch>[1]) => outboundFetch(url, init, outboundPolicy);
  const chatDeps = {
    db,
    secrets,
    teams,
    namesOf: people.namesOf,
    tell: notifications.integrationFailed,
    digestOf,
    outbound,
    allowAnyWebhookUrl: config.outbound.allowPrivateNetworks,
    now,
    log,
  };
  const slackRedirectUri = `${config.publicUrl.replace(/\/+$/, '')}/integrations/slack/callback`;
  const slackApp = createSlackApp({ config: config.slack, redirectUri: slackRedirectUri, outboundPolicy, secrets, rateLimiters, clock, log });
  const slack = createSlackService({ ...chatDeps, app: slackApp, redirectUri: slackRedirectUri });
  const microsoftTeams = createMicrosoftTeamsService(chatDeps);
  subscribeSlack(events, slack);
  subscribeMicrosoftTeams(events, microsoftTeams);
  // A new account starts with the sample meetings, set up by a worker from its `account.created` event.
  const samples = createSamplesService({
    db,
    meetings,
    notes,
    settingUp: (userId) => events.pending('samples', { type: 'user', id: userId }),
    accountExists: async (userId) => (await people.accountOf(userId)) !== undefined,
  });
  subscribeSamples(events, samples);
  // An ended session closes the sockets opened with it, in every process (the hub carries it).
  const auth = await createAuthModule(db, config, log, {
    secrets,
    rateLimiters,
    mailer,
    clock,
    events,
    onSessionsEnded: (ended) => realtime.endSessions(ended),
  });
  // Delete Account asks these first; each may refuse with a message saying what to do (the only
  // owner of a team with other members must hand it over or delete it first).
  // Last, once nothing refuses: a running subscription ends (nothing is billed for an account that is gone).
  const beforeAccountDeleted: BeforeAccountDeleted[] = [
    (userId) => teams.assertCanLeaveAllTeams(userId),
    ...(options.beforeAccountDeleted ?? []),
    (userId) => billing.endSubscriptionFor(userId),
  ];
  const dataExport = createDataExportService({
    db,
    jobs,
    meetings,
    notes,
    settings,
    blobs,
    accountOf: people.accountOf,
    mailer,
    realtime,
    publicUrl: config.publicUrl,
    now,
    log,
    rateLimiters,
    voiceProfileOf: voiceProfiles.exportFor,
  });
  const avatars = createAvatarStore(blobs, rateLimiters);
  const apiTokens = createApiTokensService({ db, now, rateLimiters });
  const calendar = createCalendarService({
    db,
    secrets,
    meetings,
    meetingUrl: (id) => `${config.publicUrl}/meetings/${id}`,
    notes,
    timeZoneOf: people.timeZoneOf,
    emailOf: async (userId) => (await people.accountOf(userId))?.email,
    outbound: config.outbound,
    timeoutMs: config.calendar.timeoutSeconds * 1000,
    google: config.calendar.google,
    googleRedirectUri: `${config.publicUrl}/settings/connections/google`,
    rateLimiters,
    events,
    clock,
    log,
  });
  const teamsSync = createTeamsSyncService({
    db,
    secrets,
    jobs,
    meetings,
    recordings: createRecordingsService({ meetings, blobs, maxRecordingHours: config.transcription.maxRecordingHours }),
    limits: { maxRecordingBytes: config.uploads.maxBytes, quotaBytes: config.uploads.quotaBytes },
    outbound: config.outbound,
    microsoft: config.microsoft,
    redirectUri: `${config.publicUrl.replace(/\/+$/, '')}/settings/connections/microsoft`,
    rateLimiters,
    clock,
    log,
  });
  const services: Services = {
    // Delete All Data and Delete Account take the person's export archives and picture too.
    account: createAccountService({
      meetings,
      settings,
      accounts: auth.accounts,
      beforeAccountDeleted,
      // A new account's samples still being set up: called off before its data goes, so none is written after it.
      beforeDataDeleted: [samples.callOff],
      // Last, whatever else the blob store counts as theirs: one query, so nothing stored of theirs outlives it.
      onDataDeleted: [
        // First: a script holding one of their tokens stops with the sessions, not after the data.
        apiTokens.removeFor,
        dataExport.removeFor,
        avatars.remove,
        calendar.removeFor,
        notifications.removeFor,
        voiceProfiles.removeFor,
        teams.forgetActivityOf,
        slack.removeFor,
        microsoftTeams.removeFor,
        teamsSync.removeFor,
        vocabulary.removeFor,
        (userId) => blobs.removeOwnedBy(userId).then(() => undefined),
      ],
      onAccountDeleted: [teams.accountDeleted, webhooks.removeFor],
      events,
      log,
    }),
    apiTokens,
    ask,
    avatars,
    billing,
    calendar,
    dataExport,
    meetings,
    notes,
    notifications,
    samples,
    transcription,
    settings,
    sharing,
    slack,
    microsoftTeams,
    insights: createInsightsService({ db, meetings, notes, now }),
    teams,
    teamsSync,
    telemetry,
    vocabulary,
    webhooks,
    voiceProfiles,
  };
  const autoDelete: AutoDeleteSweeper = createAutoDeleteSweeper({ meetings, settings, log, now });
  const uploadSweeper = createUploadSweeper({
    store: uploadStore,
    meetings,
    blobs,
    log,
    expiryMs: config.uploads.expiryMs,
    maxRecordingHours: config.transcription.maxRecordingHours,
    now,
  });
  const works = role !== 'web';
  let exportSweep: ReturnType<typeof setInterval> | undefined;

  return {
    config,
    role,
    log,
    clock,
    database,
    integrity,
    blobs,
    audioLinks,
    uploads: { store: uploadStore, sweeper: uploadSweeper },
    mailer,
    realtime,
    rateLimiters,
    jobs,
    events,
    speech: { engines, engine, speakers },
    auth,
    services,
    readiness: [
      { name: 'database', required: true, check: () => pingDatabase(db) },
      ...(redis ? [{ name: 'redis', required: false, check: async () => void (await redis.ping()) }] : []),
    ],
    version: options.version ?? VERSION,
    start: async () => {
      await jobs.start({ work: works });
      if (!works) return;
      await logSpeechReadiness(engines, engine, speakers, log);
      // In the background: a first start's download must not hold up the server (nor a failure stop it).
      autoModelsRun = bestEffort('auto-models', autoModels.run(), log);
      // Events committed but never queued (a crash in between), then every minute.
      await events.sweep();
      events.start();
      await transcription.requeueOrphans();
      // Voice profiles' descriptions made in an older way: learned again from their meetings.
      await voiceProfiles.relearnOutdated();
      await notes.requeueMissing();
      // Files a crash or a deleted meeting left behind, then expired uploads hourly (their meetings abandoned).
      await uploadSweeper.sweepOrphans();
      uploadSweeper.start();
      // Settings › Privacy "Auto-delete recordings": an hourly sweep, stopped before the database closes.
      autoDelete.start();
      // Request Data Export: archives are offered for 7 days, then deleted (checked hourly).
      const sweepExports = () => void bestEffort('data-export-sweep', dataExport.sweepExpired(), log);
      sweepExports();
      exportSweep = setInterval(sweepExports, 60 * 60 * 1000);
      exportSweep.unref();
      // Settings › Notifications "Team Activity": the daily digest job, queued hourly (each run sends only what is due).
      notifications.startDigests();
      // Webhook retries that are due, and deliveries a crash left unqueued.
      webhooks.start();
      // Connected calendars are read again every 15 minutes.
      calendar.start();
      // Connected Microsoft accounts' Teams meetings are synced every hour.
      teamsSync.startSchedule();
    },
    close: async () => {
      autoModels.stop();
      await autoModelsRun;
      clearInterval(exportSweep);
      events.stop();
      notifications.stopDigests();
      webhooks.stop();
      await calendar.stop();
      await teamsSync.stopSchedule();
      await autoDelete.stop();
      await uploadSweeper.stop();
      // Before the database closes: running jobs are handed back for the next start to pick up.
      await jobs.stop();
      await Promise.all([engines.close(), speakers.close(), notesEngines.close()]);
      await transport?.close();
      // What is still on its way to the operator's collectors goes before the process does.
      await telemetry.close();
      s3?.close();
      await uploadLocker.close();
      // A connection that is down has nothing to say goodbye on: it stops retrying instead.
      if (redis?.status === 'ready') await redis.quit();
      else redis?.disconnect();
      if (ownsDatabase) await database.close();
    },
  };
}

const VERSION = '0.1.0';

/** One channel per database schema, so two Parley installations on one PostgreSQL never hear each other. */
async function realtimeChannel(database: DbHandle): Promise<string> {
  const schema = await currentSchema(database.db);
  return schema === 'public' ? 'parley_realtime' : `parley_realtime_${schema}`;
}

/** Says at start which speech engine and speaker method this worker will use, and why not the others. */
async function logSpeechReadiness(engines: EngineRegistry, engine: TranscriptionEngine, speakers: SpeakerIdentifier, log: Logger): Promise<void> {
  const availability = await engine.checkAvailability();
  if (availability.available) log.info({ engine: engine.name, setting: engines.setting }, 'transcription engine ready');
  else log.warn({ engine: engine.name, reason: availability.reason }, 'transcription engine unavailable: recordings will be stored but not transcribed');
  // auto passed over an installed sherpa-onnx model: say why, so the fallback is no surprise.
  if (engines.setting === 'auto' && engine.name !== 'sherpa-onnx' && engines.sherpa.selectedModel()) {
    const sherpa = await engines.sherpa.checkAvailability();
    if (!sherpa.available) log.warn({ reason: sherpa.reason }, 'sherpa-onnx not used');
  }
  const speakerStatus = await speakers.status();
  log.info({ method: speakerStatus.method, voiceActivity: speakerStatus.voiceActivity, reasons: speakerStatus.reasons }, 'speaker identification ready');
}
