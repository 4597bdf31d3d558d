import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorReportEndpoints } from '#shared/contracts/error-reports.ts';
import type { Router } from '#server/http/endpoint-route.ts';
import { AppError } from '#server/lib/app-error.ts';
import type { RateLimiters } from '#server/lib/rate-limit.ts';
import { caller } from '../auth/api-guard.ts';
import type { TelemetryService } from './telemetry.service.ts';

/** Error reports one person's browser may send a minute (a page in an error loop sends no more). */
const CLIENT_REPORTS_PER_MINUTE = 30;

/**
 * The person's 5xx answers reported as errors, and the features they used (their requests that
 * succeeded) as usage events; only a signed-in person's, whom the /api/v1 guard names. Registered
 * before the routes so every route has the hooks. The error itself is kept from onError until
 * onResponse knows what was answered: a thrown AppError of 404 is no failure.
 */
export function registerTelemetryHooks(app: FastifyInstance, telemetry: TelemetryService): void {
  const thrown = new WeakMap<FastifyRequest, unknown>();
  app.addHook('onError', async (request, _reply, error) => {
    thrown.set(request, error);
  });
  app.addHook('onResponse', async (request, reply) => {
    const userId = request.auth?.user.id;
    if (!userId) return;
    if (reply.statusCode >= 500 && thrown.has(request)) telemetry.requestFailed(userId, thrown.get(request), routeOf(request));
    else if (reply.statusCode < 400 && request.routeOptions.url !== errorReportEndpoints.send.path)
      telemetry.featureUsed(userId, { route: routeOf(request), client: request.auth?.apiToken ? 'api-token' : 'app' });
  });
}

/** `POST /api/v1/meetings/:id`: the route as written, never the URL with its ids. */
const routeOf = (request: FastifyRequest): string => `${request.method} ${request.routeOptions.url ?? 'unknown route'}`;

/** POST /api/v1/error-reports: the web app's errors, forwarded only while the person allows it. */
export function registerTelemetryRoutes(route: Router, deps: { telemetry: TelemetryService; rateLimiters: RateLimiters }): void {
  const limiter = deps.rateLimiters.limiter({ keyPrefix: 'error-reports', points: CLIENT_REPORTS_PER_MINUTE, duration: 60 });
  route(errorReportEndpoints.send, async (request) => {
    const { user } = caller(request);
    const use = await limiter.consume(user.id);
    if (!use.allowed) throw new AppError('RATE_LIMITED', `Too many error reports; try again in ${Math.ceil(use.msBeforeNext / 1000)} s.`);
    return deps.telemetry.clientError(user.id, request.body);
  });
}
