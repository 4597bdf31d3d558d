import { notesEndpoints } from '#shared/contracts/notes.ts';
import { AppError, notFound } from '#server/lib/app-error.ts';
import type { Router } from '#server/http/endpoint-route.ts';
import { caller } from '../auth/api-guard.ts';
import type { NotesService } from './notes.service.ts';

/** A meeting's notes: "Regenerate notes", and a person's edit, accept, tick or dismiss of one item. */
export function registerNotesRoutes(route: Router, deps: { notes: NotesService }): void {
  route(notesEndpoints.regenerate, async (request) => {
    const result = await deps.notes.regenerate(caller(request).user.id, request.params.id);
    if (result === 'not-found') throw notFound('Meeting');
    if (result === 'not-ready') throw new AppError('CONFLICT', 'Notes are written from the transcript: wait until the meeting is transcribed.');
    return result;
  });
  route(notesEndpoints.updateItem, async (request) => {
    const { id, itemId } = request.params;
    const result = await deps.notes.updateItem(caller(request).user.id, id, itemId, request.body);
    if (!result) throw notFound('Note');
    return result;
  });
}
