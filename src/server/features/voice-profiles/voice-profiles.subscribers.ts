import type { DomainEvents } from '#server/events/domain-events.ts';
import type { VoiceProfilesService } from './voice-profiles.service.ts';

/** A new transcript from a recording: its speakers compared with the voice profiles the meeting may use. */
export function subscribeVoiceProfiles(events: DomainEvents, voiceProfiles: VoiceProfilesService): void {
  events.subscribe('voice-profiles', ['transcript.ready'], async (event) => {
    // An imported transcript has no recording to hear voices in.
    if (event.type === 'transcript.ready' && event.ownerId && event.payload.origin === 'transcription')
      await voiceProfiles.transcriptReady(event.subject.id, event.ownerId);
  });
}
