import { teamEndpoints } from '#shared/contracts/teams.ts';
import type { Router } from '#server/http/endpoint-route.ts';
import { caller } from '../auth/api-guard.ts';
import type { BillingService } from '../billing/billing.service.ts';
import type { TeamsService } from './teams.service.ts';

/**
 * /api/v1/teams and /api/v1/invitations: the caller's teams, their members and roles, invitations
 * and activity. The service checks the caller's role in every team it is asked about.
 */
export function registerTeamRoutes(route: Router, deps: { teams: TeamsService; billing: Pick<BillingService, 'assertTeamManagement'> }): void {
  const { teams, billing } = deps;
  const ok = { ok: true as const };

  route(teamEndpoints.list, async (request) => ({ items: await teams.list(caller(request).user.id) }));
  // Team management (creating teams, inviting) is the caller's plan's to allow; joining needs no plan.
  route(teamEndpoints.create, async (request) => {
    const userId = caller(request).user.id;
    await billing.assertTeamManagement(userId);
    return teams.create(userId, request.body.name);
  });
  route(teamEndpoints.rename, async (request) => teams.rename(caller(request).user.id, request.params.teamId, request.body.name));
  route(teamEndpoints.remove, async (request) => {
    await teams.remove(caller(request).user.id, request.params.teamId);
    return ok;
  });
  route(teamEndpoints.members, async (request) => ({ items: await teams.members(caller(request).user.id, request.params.teamId) }));
  route(teamEndpoints.updateMember, async (request) => {
    const { teamId, userId } = request.params;
    return teams.updateMember(caller(request).user.id, teamId, userId, request.body.role);
  });
  route(teamEndpoints.removeMember, async (request) => {
    const { teamId, userId } = request.params;
    await teams.removeMember(caller(request).user.id, teamId, userId);
    return ok;
  });
  route(teamEndpoints.heartbeat, async (request) => {
    await teams.heartbeat(caller(request).user.id);
    return ok;
  });
  route(teamEndpoints.activity, async (request) => ({ items: await teams.activity(caller(request).user.id, request.params.teamId, request.query.limit) }));
  route(teamEndpoints.invitations, async (request) => ({ items: await teams.invitations(caller(request).user.id, request.params.teamId) }));
  route(teamEndpoints.invite, async (request) => {
    const userId = caller(request).user.id;
    await teams.assertManager(userId, request.params.teamId);
    await billing.assertTeamManagement(userId);
    return teams.invite(userId, request.params.teamId, request.body);
  });
  route(teamEndpoints.revokeInvitation, async (request) => {
    const { teamId, invitationId } = request.params;
    await teams.revokeInvitation(caller(request).user.id, teamId, invitationId);
    return ok;
  });
  route(teamEndpoints.previewInvitation, async (request, reply) => {
    const preview = await teams.preview(request.params.token);
    // The token is a credential in the URL: no cache keeps the answer, no search engine the page.
    void reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex');
    return preview;
  });
  route(teamEndpoints.acceptInvitation, async (request) => ({ team: await teams.accept(caller(request).user.id, request.params.token) }));
}
