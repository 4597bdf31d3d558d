import { vocabularyEndpoints } from '#shared/contracts/vocabulary.ts';
import type { Router } from '#server/http/endpoint-route.ts';
import { caller } from '../auth/api-guard.ts';
import type { VocabularyService } from './vocabulary.service.ts';

/** /api/v1/vocabulary (the caller's own terms and their teams') and /api/v1/teams/:teamId/vocabulary. */
export function registerVocabularyRoutes(route: Router, deps: { vocabulary: VocabularyService }): void {
  const { vocabulary } = deps;
  route(vocabularyEndpoints.get, async (request) => vocabulary.overview(caller(request).user.id));
  route(vocabularyEndpoints.save, async (request) => vocabulary.save(caller(request).user.id, request.body.terms));
  route(vocabularyEndpoints.saveTeam, async (request) => vocabulary.saveTeam(caller(request).user.id, request.params.teamId, request.body.terms));
}
