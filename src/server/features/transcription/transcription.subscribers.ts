import type { DomainEvents } from '#server/events/domain-events.ts';
import { TRANSCRIPTION_SUBSCRIBER, type TranscriptionService } from './transcription.service.ts';

/** A stored recording is transcribed. */
export function subscribeTranscription(events: DomainEvents, transcription: TranscriptionService): void {
  events.subscribe(TRANSCRIPTION_SUBSCRIBER, ['recording.stored'], async (event) => {
    await transcription.enqueue(event.subject.id);
  });
}
