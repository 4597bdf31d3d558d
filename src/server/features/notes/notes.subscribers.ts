import type { DomainEvents } from '#server/events/domain-events.ts';
import { NOTES_SUBSCRIBER, type NotesService } from './notes.service.ts';

/**
 * A stored transcript (transcribed or imported) gets its notes, unless the person turned them off;
 * a correction of who spoke carries over to the action items' owners.
 */
export function subscribeNotes(events: DomainEvents, notes: NotesService): void {
  events.subscribe(NOTES_SUBSCRIBER, ['transcript.ready', 'transcript.edited'], async (event) => {
    if (!event.ownerId) return;
    if (event.type === 'transcript.ready') await notes.transcriptReady(event.subject.id, event.ownerId);
    else if (event.type === 'transcript.edited' && event.payload.change !== 'text')
      await notes.speakersEdited(event.subject.id, event.ownerId, event.payload.merged);
  });
}
