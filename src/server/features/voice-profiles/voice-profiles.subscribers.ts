import type { DomainEvents } from '#server/events/domain-events.ts';
import type { VoiceProfilesService } from './voice-profiles.service.ts';

/**
 * A new transcript from a recording: its speakers compared with the voice profiles the meeting may
 * use. A voice to learn (a consent given, a suggestion accepted): the learning queued.
 */
export function subscribeVoiceProfiles(events: DomainEvents, voiceProfiles: VoiceProfilesService): void {
  events.subscribe('voice-profiles', ['transcript.ready', 'voice.learning_requested'], async (event) => {
    // An imported transcript has no recording to hear voices in.
    if (event.type === 'transcript.ready' && event.ownerId && event.payload.origin === 'transcription')
      await voiceProfiles.transcriptReady(event.subject.id, event.ownerId);
    if (event.type === 'voice.learning_requested') await voiceProfiles.learnRequested(event.payload);
  });
}
