import { insightsEndpoints } from '#shared/contracts/insights.ts';
import type { Router } from '#server/http/endpoint-route.ts';
import { caller } from '../auth/api-guard.ts';
import type { InsightsService } from './insights.service.ts';

/** /api/v1/insights and /api/v1/analytics: aggregates over the caller's own meetings. */
export function registerInsightsRoutes(route: Router, deps: { insights: InsightsService }): void {
  route(insightsEndpoints.insights, async (request) => deps.insights.insights(caller(request).user.id));
  route(insightsEndpoints.analytics, async (request) => deps.insights.analytics(caller(request).user.id, request.query));
}
