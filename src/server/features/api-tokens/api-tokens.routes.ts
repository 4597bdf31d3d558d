import { apiTokenEndpoints } from '#shared/contracts/api-tokens.ts';
import type { Router } from '#server/http/endpoint-route.ts';
import { caller } from '../auth/api-guard.ts';
import type { BillingService } from '../billing/billing.service.ts';
import type { ApiTokensService } from './api-tokens.service.ts';

/** /api/v1/tokens: Settings › Developers' personal API tokens (sessions only: the contract refuses tokens here). */
export function registerApiTokenRoutes(route: Router, deps: { apiTokens: ApiTokensService; billing: Pick<BillingService, 'assertApiAccess'> }): void {
  const { apiTokens } = deps;
  route(apiTokenEndpoints.create, async (request) => {
    const userId = caller(request).user.id;
    await deps.billing.assertApiAccess(userId);
    return apiTokens.create(userId, request.body);
  });
  route(apiTokenEndpoints.list, async (request) => ({ tokens: await apiTokens.list(caller(request).user.id) }));
  route(apiTokenEndpoints.revoke, async (request) => {
    await apiTokens.revoke(caller(request).user.id, request.params.id);
    return { ok: true as const };
  });
}
