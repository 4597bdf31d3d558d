/**
 * buildApp(deps): the whole HTTP surface as one Fastify instance that never listens, so tests drive
 * it with inject() or on a random port. main.ts owns the process; this file owns the composition.
 */
import path from 'node:path';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Deps } from './deps.ts';
import { registerMeRoute } from './features/account/me.route.ts';
import { createApiGuard } from './features/auth/api-guard.ts';
import { createAuthModule, registerAuthRoutes } from './features/auth/auth.module.ts';
import { registerInsightsRoutes } from './features/insights/insights.routes.ts';
import { registerMeetingExportRoutes } from './features/meetings/meeting-export.routes.ts';
import { registerMeetingRoutes } from './features/meetings/meetings.routes.ts';
import { seedSampleMeetings } from './features/meetings/sample-meetings.ts';
import { createRealtimeHub, type RealtimeHub } from './features/realtime/realtime-hub.ts';
import { registerRealtimeRoutes } from './features/realtime/realtime.routes.ts';
import { registerLiveRoutes } from './features/live/live.routes.ts';
import { createAutoDeleteSweeper } from './features/settings/auto-delete.ts';
import { registerSettingsRoutes } from './features/settings/settings.routes.ts';
import { registerSharingRoutes } from './features/sharing/sharing.routes.ts';
import { registerUploads } from './features/recordings/uploads.plugin.ts';
import { registerStatusRoutes } from './features/status/status.routes.ts';
import { createEngineRegistry } from './features/transcription/engines/select-engine.ts';
import { getPipelineSettings } from './features/settings/pipeline-settings.ts';
import { createSpeakerIdentifier } from './features/transcription/speakers/identify-speakers.ts';
import { createTranscriptionService, type TranscriptionService } from './features/transcription/transcription-service.ts';
import { registerTranscriptionRoutes } from './features/transcription/transcription.routes.ts';
import { registerErrorHandler } from './http/error-handler.ts';
import { registerJsonBodyParser } from './http/json-body-parser.ts';
import { registerOpenApi } from './http/openapi.ts';
import { registerSecurity } from './http/security.ts';
import { isApiPath, registerAppConfig, registerSpa } from './http/spa.ts';
import { loggerOptions } from './lib/logger.ts';

type BuildAppOptions = {
  /** Directory of the built web app; omitted in API-only tests. */
  webDir?: string;
  logger?: boolean;
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
  const { config } = deps;
  const app = Fastify({
    logger: options.logger === false ? false : loggerOptions(config.logLevel),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.http.trustProxy,
    // Long enough for a large upload chunk on a slow link; handlers themselves answer quickly.
    requestTimeout: 120_000,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerJsonBodyParser(app);
  registerErrorHandler(app);
  await registerSecurity(app, config);

  app.get('/healthz', async () => ({ status: 'ok', version: deps.version }));

  await registerOpenApi(app, deps.version);
  const db = deps.database.db;
  const auth = await createAuthModule(db, config, app.log, { onUserCreated: [(userId) => seedSampleMeetings(db, userId)] });
  await registerAuthRoutes(app, auth, deps.version);
  registerAppConfig(app, () => ({ anonKey: auth.anonKey, version: deps.version }));

  await app.register(websocket, { options: { maxPayload: 1024 * 1024 } });
  const realtime = createRealtimeHub();
  app.decorate('realtime', realtime);
  registerRealtimeRoutes(app, { auth: auth.context, hub: realtime });
  registerLiveRoutes(app, { db, auth: auth.context, log: app.log });

  const requireUser = createApiGuard(auth.context);
  registerMeRoute(app, requireUser);
  registerMeetingRoutes(app, { db, requireUser, removeAudio: (keys) => deps.blobs.remove(keys) });
  registerMeetingExportRoutes(app, { db, requireUser, blobs: deps.blobs });
  registerSharingRoutes(app, { db, requireUser, publicUrl: config.publicUrl });
  registerInsightsRoutes(app, { db, requireUser });
  registerSettingsRoutes(app, { db, requireUser });
  // Settings › Privacy "Auto-delete recordings": an hourly sweep, stopped before the database closes.
  const autoDelete = createAutoDeleteSweeper({ db, blobs: deps.blobs, log: app.log });
  app.addHook('onReady', async () => autoDelete.start());
  app.addHook('onClose', () => autoDelete.stop());

  const engines = createEngineRegistry(config);
  const { engine } = engines;
  const speakers = createSpeakerIdentifier({
    method: config.transcription.speakers,
    modelsDir: config.models.dir,
    onFallback: (reason) => app.log.warn({ reason }, 'sherpa-onnx diarization failed on a recording: speakers told apart by clustering'),
  });
  const transcription = createTranscriptionService({
    db,
    blobs: deps.blobs,
    engine,
    identifySpeakers: speakers.identify,
    settingsOf: (userId) => getPipelineSettings(db, userId),
    realtime,
    log: app.log,
    maxAttempts: config.transcription.maxAttempts,
    concurrency: config.transcription.concurrency,
    retryDelayMs: config.transcription.retryDelaySeconds * 1000,
  });
  app.addHook('onReady', async () => {
    const availability = await engine.checkAvailability();
    if (availability.available) app.log.info({ engine: engine.name, setting: engines.setting }, 'transcription engine ready');
    else app.log.warn({ engine: engine.name, reason: availability.reason }, 'transcription engine unavailable: recordings will be stored but not transcribed');
    // auto passed over an installed sherpa-onnx model: say why, so the fallback is no surprise.
    if (engines.setting === 'auto' && engine.name !== 'sherpa-onnx' && engines.sherpa.selectedModel()) {
      const sherpa = await engines.sherpa.checkAvailability();
      if (!sherpa.available) app.log.warn({ reason: sherpa.reason }, 'sherpa-onnx not used');
    }
    const speakerStatus = await speakers.status();
    app.log.info({ method: speakerStatus.method, voiceActivity: speakerStatus.voiceActivity, reasons: speakerStatus.reasons }, 'speaker identification ready');
  });
  app.addHook('onClose', () => engines.close());
  app.addHook('onClose', () => speakers.close());
  registerStatusRoutes(app, { db, requireUser, engines, modelsDir: config.models.dir });
  await registerUploads(app, { config, db, blobs: deps.blobs, auth: auth.context, log: app.log, onRecordingStored: (meetingId) => void transcription.enqueue(meetingId).catch((err: unknown) => app.log.error({ err, meetingId }, 'could not queue transcription')) });
  app.decorate('transcription', transcription);
  registerTranscriptionRoutes(app, { db, requireUser, transcription });
  app.addHook('onReady', () => transcription.start());
  // Before the database closes: the running job is handed back for the next start to pick up.
  app.addHook('onClose', () => transcription.stop());

  app.setNotFoundHandler((request, reply) => {
    const message = isApiPath(request.url) ? `No route for ${request.method} ${request.url.split('?')[0]}` : 'Not found';
    return reply.status(404).send({ error: { code: 'NOT_FOUND', message } });
  });

  if (options.webDir) await registerSpa(app, path.resolve(options.webDir));
  return app;
}
