import type { DomainEvents } from '#server/events/domain-events.ts';
import type { VoiceProfilesService } from './voice-profiles.service.ts';

/**
 * A voice to learn (a consent given, a suggestion accepted): the learning queued. (A new recording's
 * speakers are matched before its transcript is stored: the transcription calls nameKnownVoices.)
 */
export function subscribeVoiceProfiles(events: DomainEvents, voiceProfiles: VoiceProfilesService): void {
  events.subscribe('voice-profiles', ['voice.learning_requested'], async (event) => {
    if (event.type === 'voice.learning_requested') await voiceProfiles.learnRequested(event.payload);
  });
}
