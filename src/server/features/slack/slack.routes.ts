import { slackEndpoints } from '#shared/contracts/chat-integrations.ts';
import type { Router } from '#server/http/endpoint-route.ts';
import { caller } from '../auth/api-guard.ts';
import type { SlackService } from './slack.service.ts';

/**
 * /api/v1/integrations/slack: the caller's Slack channel, or a team's (`teamId`: its owner and admins
 * change it, its members see it); and "Share to Slack" from a meeting the caller may read.
 */
export function registerSlackRoutes(route: Router, deps: { slack: SlackService }): void {
  const { slack } = deps;
  route(slackEndpoints.get, async (request) => slack.state(caller(request).user.id, request.query.teamId));
  route(slackEndpoints.connect, async (request) => slack.connect(caller(request).user.id, request.body));
  route(slackEndpoints.disconnect, async (request) => {
    await slack.disconnect(caller(request).user.id, request.query.teamId);
    return { ok: true as const };
  });
  route(slackEndpoints.test, async (request) => slack.test(caller(request).user.id, request.body.teamId));
  route(slackEndpoints.app, async () => slack.app());
  route(slackEndpoints.oauthStart, async (request) => slack.oauthStart(caller(request).user.id, request.body.teamId));
  route(slackEndpoints.oauthFinish, async (request) => slack.oauthFinish(caller(request).user.id, request.body));
  route(slackEndpoints.channels, async (request) => ({ channels: await slack.channels(caller(request).user.id, request.query.teamId) }));
  route(slackEndpoints.chooseChannel, async (request) => slack.chooseChannel(caller(request).user.id, request.body));
  route(slackEndpoints.share, async (request) => slack.share(caller(request).user.id, request.params.id, request.body));
}
