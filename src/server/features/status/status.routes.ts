import { statusEndpoints } from '#shared/contracts/status.ts';
import type { DatabaseIntegrity } from '#server/db/integrity.ts';
import type { DomainEvents } from '#server/events/domain-events.ts';
import type { Router } from '#server/http/endpoint-route.ts';
import { bestEffortFailures } from '#server/lib/best-effort.ts';
import type { ProcessHealth } from '#server/lib/process-health.ts';
import type { NotesService } from '../notes/notes.service.ts';
import type { TranscriptionService } from '../transcription/transcription.service.ts';

/**
 * GET /api/v1/status (signed-in): which transcription and notes engines are in use, whether each
 * known engine is available and why not, the speech models installed, the job queues, and the
 * database's start-up integrity check, and this process's best-effort failures by name. Nothing
 * in it belongs to another person: engines and models are the installation's, queues are counts,
 * the process's health is its event loop's delay and its memory.
 */
export function registerStatusRoutes(
  route: Router,
  deps: {
    transcription: TranscriptionService;
    notes: NotesService;
    integrity: DatabaseIntegrity;
    events: Pick<DomainEvents, 'counts'>;
    health: () => ProcessHealth;
  },
): void {
  route(statusEndpoints.get, async () => {
    const [transcription, notes, eventDeliveries] = await Promise.all([deps.transcription.status(), deps.notes.status(), deps.events.counts()]);
    return { transcription, notes, database: deps.integrity, bestEffortFailures: bestEffortFailures(), eventDeliveries, process: deps.health() };
  });
}
