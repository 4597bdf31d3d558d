import { billingEndpoints } from '#shared/contracts/billing.ts';
import type { Router } from '#server/http/endpoint-route.ts';
import { caller } from '../auth/api-guard.ts';
import type { BillingService } from './billing.service.ts';

/** /api/v1/billing: the caller's plan, its limits and this month's usage (Settings › Billing, the dashboard). */
export function registerBillingRoutes(route: Router, deps: { billing: BillingService }): void {
  route(billingEndpoints.overview, async (request) => deps.billing.overview(caller(request).user.id));
}
