import type { DomainEvents } from '#server/events/domain-events.ts';
import { NOTES_SUBSCRIBER, type NotesService } from './notes.service.ts';

/** A stored transcript (transcribed or imported) gets its notes, unless the person turned them off. */
export function subscribeNotes(events: DomainEvents, notes: NotesService): void {
  events.subscribe(NOTES_SUBSCRIBER, ['transcript.ready'], async (event) => {
    if (event.ownerId) await notes.transcriptReady(event.subject.id, event.ownerId);
  });
}
