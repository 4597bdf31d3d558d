import { meEndpoints } from '#shared/contracts/me.ts';
import type { Router } from '#server/http/endpoint-route.ts';
import { caller } from '../auth/api-guard.ts';
import type { AccountCaller, AccountService } from './account.service.ts';

/** DELETE /api/v1/me/data and DELETE /api/v1/me: Settings › Privacy's danger zone. */
export function registerAccountRoutes(route: Router, deps: { account: AccountService }): void {
  route(meEndpoints.deleteData, async (request) => deps.account.deleteAllData(accountCaller(request), request.body));
  route(meEndpoints.deleteAccount, async (request) => deps.account.deleteAccount(accountCaller(request), request.body));
}

function accountCaller(request: Parameters<typeof caller>[0]): AccountCaller {
  const { user, session } = caller(request);
  return { userId: user.id, email: user.email, sessionId: session.id };
}
