import { voiceProfileEndpoints } from '#shared/contracts/voice-profiles.ts';
import type { Router } from '#server/http/endpoint-route.ts';
import { caller } from '../auth/api-guard.ts';
import type { VoiceProfilesService } from './voice-profiles.service.ts';

/** Voice profiles: enrolling a meeting's speaker, Settings' own profile and requests, a meeting's suggestions. */
export function registerVoiceProfileRoutes(route: Router, deps: { voiceProfiles: VoiceProfilesService }): void {
  const { voiceProfiles } = deps;
  route(voiceProfileEndpoints.enrol, (request) => voiceProfiles.enrol(caller(request).user.id, request.params.id, request.params.speakerId, request.body));
  route(voiceProfileEndpoints.mine, (request) => voiceProfiles.mine(caller(request).user.id));
  route(voiceProfileEndpoints.update, (request) => voiceProfiles.setTeam(caller(request).user.id, request.body.teamId));
  route(voiceProfileEndpoints.remove, (request) => voiceProfiles.remove(caller(request).user.id));
  route(voiceProfileEndpoints.answerRequest, (request) => voiceProfiles.answerRequest(caller(request).user.id, request.params.id, request.body));
  route(voiceProfileEndpoints.suggestions, (request) => voiceProfiles.suggestions(caller(request).user.id, request.params.id));
  route(voiceProfileEndpoints.answerSuggestion, (request) =>
    voiceProfiles.answerSuggestion(caller(request).user.id, request.params.id, request.params.suggestionId, request.body.accept),
  );
}
