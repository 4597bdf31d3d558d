/**
 * buildApp(deps): the whole HTTP surface as one Fastify instance that never listens, so tests drive
 * it with inject() or on a random port. It only registers plugins and routes over what deps.ts
 * built; main.ts owns the process and the background work.
 */
import path from 'node:path';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Deps } from './deps.ts';
import { registerApiTokenRoutes } from './features/api-tokens/api-tokens.routes.ts';
import { registerVoiceProfileRoutes } from './features/voice-profiles/voice-profiles.routes.ts';
import { registerAskRoutes } from './features/ask/ask.routes.ts';
import { registerBillingRoutes, registerStripeWebhook } from './features/billing/billing.routes.ts';
import { registerAccountRoutes } from './features/account/account.routes.ts';
import { registerCalendarRoutes } from './features/calendar/calendar.routes.ts';
import { registerMeRoute } from './features/account/me.route.ts';
import { registerDataExportRoutes } from './features/data-export/data-export.routes.ts';
import { createApiGuard } from './features/auth/api-guard.ts';
import { registerAuthRoutes } from './features/auth/auth.module.ts';
import { registerInsightsRoutes } from './features/insights/insights.routes.ts';
import { registerMcpRoutes } from './features/mcp/mcp.routes.ts';
import { registerLiveRoutes } from './features/transcription/live/live.routes.ts';
import { registerMeetingExportRoutes } from './features/meetings/meeting-export.routes.ts';
import { registerMeetingRoutes } from './features/meetings/meetings.routes.ts';
import { registerNotesRoutes } from './features/notes/notes.routes.ts';
import { registerNotificationRoutes } from './features/notifications/notifications.routes.ts';
import { registerTrackerRoutes } from './features/notes/tracker/tracker.routes.ts';
import type { RealtimeHub } from './lib/realtime/realtime-hub.ts';
import { registerRealtimeRoutes } from './features/realtime/realtime.routes.ts';
import { registerUploads } from './features/recordings/uploads.plugin.ts';
import { registerMicrosoftTeamsRoutes } from './features/microsoft-teams/microsoft-teams.routes.ts';
import { registerTeamsSyncRoutes } from './features/teams-sync/teams-sync.routes.ts';
import { registerSlackRoutes } from './features/slack/slack.routes.ts';
import { registerSettingsRoutes } from './features/settings/settings.routes.ts';
import { registerVocabularyRoutes } from './features/vocabulary/vocabulary.routes.ts';
import { registerSharingRoutes } from './features/sharing/sharing.routes.ts';
import { registerStatusRoutes } from './features/status/status.routes.ts';
import { registerTeamRoutes } from './features/teams/teams.routes.ts';
import { registerTelemetryHooks, registerTelemetryRoutes } from './features/telemetry/telemetry.routes.ts';
import { registerWebhookRoutes } from './features/webhooks/webhooks.routes.ts';
import type { TranscriptionService } from './features/transcription/transcription.service.ts';
import { registerTranscriptionRoutes } from './features/transcription/transcription.routes.ts';
import { createRouter } from './http/endpoint-route.ts';
import { registerErrorHandler } from './http/error-handler.ts';
import { registerJsonBodyParser } from './http/json-body-parser.ts';
import { registerOpenApi } from './http/openapi.ts';
import { checkReadiness } from './lib/readiness.ts';
import { watchProcessHealth } from './lib/process-health.ts';
import { registerSecurity } from './http/security.ts';
import { isApiPath, registerAppConfig, registerSpa } from './http/spa.ts';

type BuildAppOptions = {
  /** Directory of the built web app; omitted in API-only tests. */
  webDir?: string;
};

export const BODY_LIMIT_BYTES = 1024 * 1024;

declare module 'fastify' {
  interface FastifyInstance {
    /** Durable transcription jobs of stored recordings (tests wait on them with idle()). */
    transcription: TranscriptionService;
    /** Per-person event fan-out behind the /realtime WebSocket. */
    realtime: RealtimeHub;
  }
}

export async function buildApp(deps: Deps, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const { config, services } = deps;
  const app = Fastify({
    loggerInstance: deps.log,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.http.trustProxy,
    // Long enough for a large upload chunk on a slow link; handlers themselves answer quickly.
    requestTimeout: 120_000,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerJsonBodyParser(app);
  registerErrorHandler(app);
  registerTelemetryHooks(app, services.telemetry);
  await registerSecurity(app, config);

  // A damaged database (the start-up integrity check) is not healthy, however well HTTP answers.
  app.get('/healthz', async (_request, reply) => {
    if (deps.integrity.ok) return { status: 'ok', version: deps.version };
    return reply.status(503).send({ status: 'error', version: deps.version, reason: deps.integrity.reason });
  });

  // Whether this process can serve now: each dependency checked live, the one that is down named (a
  // load balancer's probe). 503 while shutting down too, so traffic moves before the process goes.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.get('/readyz', async (_request, reply) => {
    const { status, dependencies } = await checkReadiness(deps.readiness);
    const serving = !closing && deps.integrity.ok && status !== 'unavailable';
    return reply
      .status(serving ? 200 : 503)
      .send({ status: closing ? 'closing' : deps.integrity.ok ? status : 'unavailable', version: deps.version, dependencies });
  });

  await registerOpenApi(app, deps.version);
  await registerAuthRoutes(app, deps.auth, deps.version);
  registerAppConfig(app, () => ({ anonKey: deps.auth.anonKey, version: deps.version, installation: config.installation }));

  await app.register(websocket, { options: { maxPayload: 1024 * 1024 } });
  app.decorate('realtime', deps.realtime);
  app.decorate('transcription', services.transcription);
  registerRealtimeRoutes(app, { auth: deps.auth.context, hub: deps.realtime });
  registerLiveRoutes(app, {
    meetings: services.meetings,
    billing: services.billing,
    vocabulary: services.vocabulary,
    auth: deps.auth.context,
    hub: deps.realtime,
    live: deps.config.transcription.live,
    rateLimiters: deps.rateLimiters,
    log: deps.log,
  });

  // A token works only while its owner's plan includes API access (always, without plans).
  const verify = async (token: string) => {
    const grant = await services.apiTokens.verify(token);
    if (grant) await services.billing.assertApiAccess(grant.userId);
    return grant;
  };
  const guard = createApiGuard(deps.auth.context, { verify, limiter: services.apiTokens.limiter });
  const route = createRouter(app, guard);
  registerApiTokenRoutes(route, { apiTokens: services.apiTokens, billing: services.billing });
  registerVoiceProfileRoutes(route, { voiceProfiles: services.voiceProfiles });
  registerBillingRoutes(route, { billing: services.billing });
  if (config.stripe) await registerStripeWebhook(app, { billing: services.billing });
  registerMeRoute(route, { firstVisit: deps.auth.accounts.firstVisit });
  registerAccountRoutes(route, { account: services.account, avatars: services.avatars });
  registerDataExportRoutes(route, { exports: services.dataExport });
  registerMeetingRoutes(route, {
    meetings: services.meetings,
    transcription: services.transcription,
    notes: services.notes,
    samples: services.samples,
    billing: services.billing,
  });
  registerAskRoutes(route, { ask: services.ask });
  registerMeetingExportRoutes(route, {
    meetings: services.meetings,
    blobs: deps.blobs,
    audioLinks: deps.audioLinks,
    sessionActive: deps.auth.accounts.sessionActive,
    settings: services.settings,
    transcription: services.transcription,
    notes: services.notes,
    billing: services.billing,
  });
  registerNotesRoutes(route, { notes: services.notes });
  registerTrackerRoutes(route, { notes: services.notes });
  registerTranscriptionRoutes(route, { transcription: services.transcription });
  registerSharingRoutes(route, { sharing: services.sharing, publicUrl: config.publicUrl });
  registerInsightsRoutes(route, { insights: services.insights });
  registerCalendarRoutes(route, { calendar: services.calendar });
  registerSettingsRoutes(route, { settings: services.settings });
  registerVocabularyRoutes(route, { vocabulary: services.vocabulary });
  registerTelemetryRoutes(route, { telemetry: services.telemetry, rateLimiters: deps.rateLimiters });
  registerTeamRoutes(route, { teams: services.teams, billing: services.billing });
  registerWebhookRoutes(route, { webhooks: services.webhooks });
  registerSlackRoutes(route, { slack: services.slack });
  registerMicrosoftTeamsRoutes(route, { microsoftTeams: services.microsoftTeams });
  registerTeamsSyncRoutes(route, { teamsSync: services.teamsSync });
  registerMcpRoutes(app, guard, { meetings: services.meetings, notes: services.notes, ask: services.ask, publicUrl: config.publicUrl, version: deps.version });
  // Unsubscribe links take RFC 8058's one-click POST, a form body (read as nothing: the token is in the URL), in this scope only.
  await app.register(async (scope) => {
    scope.addContentTypeParser(['application/x-www-form-urlencoded', 'multipart/form-data'], { parseAs: 'string', bodyLimit: 4096 }, (_request, _body, done) =>
      done(null, undefined),
    );
    registerNotificationRoutes(createRouter(scope, guard), { notifications: services.notifications, publicUrl: config.publicUrl });
  });
  const health = watchProcessHealth(deps.role);
  app.addHook('onClose', async () => health.stop());
  registerStatusRoutes(route, {
    transcription: services.transcription,
    notes: services.notes,
    integrity: deps.integrity,
    events: deps.events,
    health: health.read,
  });
  await registerUploads(app, {
    config,
    store: deps.uploads.store,
    meetings: services.meetings,
    blobs: deps.blobs,
    auth: deps.auth.context,
    log: deps.log,
  });

  app.setNotFoundHandler((request, reply) => {
    const message = isApiPath(request.url) ? `No route for ${request.method} ${request.url.split('?')[0]}` : 'Not found';
    return reply.status(404).send({ error: { code: 'NOT_FOUND', message } });
  });

  if (options.webDir) await registerSpa(app, path.resolve(options.webDir));
  return app;
}
