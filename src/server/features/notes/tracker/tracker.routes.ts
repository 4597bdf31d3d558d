import { trackerEndpoints } from '#shared/contracts/tracker.ts';
import { notFound } from '#server/lib/app-error.ts';
import type { Router } from '#server/http/endpoint-route.ts';
import { caller } from '../../auth/api-guard.ts';
import type { NotesService } from '../notes.service.ts';

/** Notes across meetings: the action-item tracker with its "done or slipped?" answers, and the decision register. */
export function registerTrackerRoutes(route: Router, deps: { notes: NotesService }): void {
  route(trackerEndpoints.actionItems, (request) => deps.notes.actionItemTracker(caller(request).user.id, request.query));
  route(trackerEndpoints.answerMention, async (request) => {
    const { itemId, mentionId } = request.params;
    const item = await deps.notes.answerMention(caller(request).user.id, itemId, mentionId, request.body.resolution);
    if (!item) throw notFound('Mention');
    return item;
  });
  route(trackerEndpoints.decisions, (request) => deps.notes.decisionRegister(caller(request).user.id, request.query));
  route(trackerEndpoints.answerDecisionLink, async (request) => {
    const decision = await deps.notes.answerDecisionLink(caller(request).user.id, request.params.linkId, request.body.status);
    if (!decision) throw notFound('Decision link');
    return decision;
  });
}
