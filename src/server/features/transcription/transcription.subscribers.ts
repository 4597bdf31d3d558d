import type { DomainEvents } from '#server/events/domain-events.ts';
import type { TranscriptionService } from './transcription.service.ts';

/** A stored recording is transcribed. */
export function subscribeTranscription(events: DomainEvents, transcription: TranscriptionService): void {
  events.subscribe('transcription', ['recording.stored'], async (event) => {
    await transcription.enqueue(event.subject.id);
  });
}
