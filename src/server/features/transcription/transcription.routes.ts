import { meetingEndpoints } from '#shared/contracts/meetings.ts';
import { AppError, notFound } from '#server/lib/app-error.ts';
import type { Router } from '#server/http/endpoint-route.ts';
import { caller } from '../auth/api-guard.ts';
import type { TranscriptionService } from './transcription.service.ts';

/** POST /api/v1/meetings/:id/retry: transcribe a failed meeting again (the Retry button). */
export function registerTranscriptionRoutes(route: Router, deps: { transcription: TranscriptionService }): void {
  route(meetingEndpoints.retry, async (request) => {
    const result = await deps.transcription.retry(caller(request).user.id, request.params.id);
    if (result === 'not-found') throw notFound('Meeting');
    if (result === 'not-failed') throw new AppError('CONFLICT', 'Only a meeting whose transcription failed can be retried.');
    if (result === 'no-audio') throw new AppError('CONFLICT', 'This meeting has no recording to transcribe: record or import it again.');
    return { status: 'processing' as const };
  });
}
