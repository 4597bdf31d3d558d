import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AnalyticsQuerySchema, AnalyticsResponseSchema, InsightsResponseSchema } from '#shared/contracts/insights.ts';
import type { Db } from '#server/db/create-db.ts';
import { caller } from '../auth/api-guard.ts';
import { buildAnalytics } from './analytics.ts';
import { buildInsights } from './insights.repository.ts';

/** /api/v1/insights and /api/v1/analytics: aggregates over the caller's own meetings. */
export function registerInsightsRoutes(app: FastifyInstance, deps: { db: Db; requireUser: preHandlerAsyncHookHandler }): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/api/v1/insights',
    { preHandler: deps.requireUser, schema: { tags: ['insights'], response: { 200: InsightsResponseSchema } } },
    async (request) => buildInsights(deps.db, caller(request).user.id),
  );
  api.get(
    '/api/v1/analytics',
    { preHandler: deps.requireUser, schema: { tags: ['insights'], querystring: AnalyticsQuerySchema, response: { 200: AnalyticsResponseSchema } } },
    async (request) => buildAnalytics(deps.db, caller(request).user.id, request.query),
  );
}
