import { teamsSyncEndpoints } from '#shared/contracts/teams-sync.ts';
import type { Router } from '#server/http/endpoint-route.ts';
import { caller } from '../auth/api-guard.ts';
import type { TeamsSyncService } from './teams-sync.service.ts';

/** /api/v1/integrations/teams/account: the caller's own Microsoft account and its Teams meeting sync. */
export function registerTeamsSyncRoutes(route: Router, deps: { teamsSync: TeamsSyncService }): void {
  const { teamsSync } = deps;
  const userOf = (request: Parameters<typeof caller>[0]) => caller(request).user.id;
  route(teamsSyncEndpoints.get, async (request) => teamsSync.state(userOf(request)));
  route(teamsSyncEndpoints.start, async (request) => teamsSync.start(userOf(request)));
  route(teamsSyncEndpoints.finish, async (request) => teamsSync.finish(userOf(request), request.body));
  route(teamsSyncEndpoints.sync, async (request) => teamsSync.sync(userOf(request)));
  route(teamsSyncEndpoints.disconnect, async (request) => teamsSync.disconnect(userOf(request)));
}
