import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParamsSchema } from '#shared/contracts/meetings.ts';
import type { Db } from '#server/db/create-db.ts';
import { AppError, notFound } from '#server/lib/app-error.ts';
import { caller } from '../auth/api-guard.ts';
import type { TranscriptionService } from './transcription-service.ts';

/** POST /api/v1/meetings/:id/retry: transcribe a failed meeting again (the Retry button). */
export function registerTranscriptionRoutes(app: FastifyInstance, deps: { db: Db; requireUser: preHandlerAsyncHookHandler; transcription: TranscriptionService }): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/v1/meetings/:id/retry',
    { preHandler: deps.requireUser, schema: { tags: ['meetings'], params: IdParamsSchema, response: { 202: z.object({ status: z.literal('processing') }) } } },
    async (request, reply) => {
      const ownerId = caller(request).user.id;
      const meeting = await deps.db
        .selectFrom('meetings')
        .select(['status', 'audio_key'])
        .where('id', '=', request.params.id)
        .where('owner_id', '=', ownerId)
        .executeTakeFirst();
      if (!meeting) throw notFound('Meeting');
      if (meeting.status !== 'failed') throw new AppError('CONFLICT', 'Only a meeting whose transcription failed can be retried.');
      if (!meeting.audio_key) throw new AppError('CONFLICT', 'This meeting has no recording to transcribe: record or import it again.');
      await deps.db
        .updateTable('meetings')
        .set({ status: 'processing', failure_reason: null, updated_at: new Date().toISOString() })
        .where('id', '=', request.params.id)
        .execute();
      await deps.transcription.enqueue(request.params.id);
      return reply.status(202).send({ status: 'processing' as const });
    },
  );
}
