import { microsoftTeamsEndpoints } from '#shared/contracts/chat-integrations.ts';
import type { Router } from '#server/http/endpoint-route.ts';
import { caller } from '../auth/api-guard.ts';
import type { MicrosoftTeamsService } from './microsoft-teams.service.ts';

/** /api/v1/integrations/teams: the caller's Microsoft Teams channel (a Workflows webhook), or a team's (`teamId`). */
export function registerMicrosoftTeamsRoutes(route: Router, deps: { microsoftTeams: MicrosoftTeamsService }): void {
  const { microsoftTeams } = deps;
  route(microsoftTeamsEndpoints.get, async (request) => microsoftTeams.state(caller(request).user.id, request.query.teamId));
  route(microsoftTeamsEndpoints.connect, async (request) => microsoftTeams.connect(caller(request).user.id, request.body));
  route(microsoftTeamsEndpoints.disconnect, async (request) => {
    await microsoftTeams.disconnect(caller(request).user.id, request.query.teamId);
    return { ok: true as const };
  });
  route(microsoftTeamsEndpoints.test, async (request) => microsoftTeams.test(caller(request).user.id, request.body.teamId));
}
