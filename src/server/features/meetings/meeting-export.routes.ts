import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ExportQuerySchema, IdParamsSchema } from '#shared/contracts/meetings.ts';
import type { Db } from '#server/db/create-db.ts';
import type { BlobStore } from '#server/lib/blob-store.ts';
import { notFound } from '#server/lib/app-error.ts';
import { caller } from '../auth/api-guard.ts';
import { registerAudioRoutes } from './audio.routes.ts';
import { contentDisposition, safeFileStem } from './content-disposition.ts';
import { exportMeeting } from './meeting-export.ts';
import { getMeeting } from './meetings.repository.ts';

type ExportRouteDeps = { db: Db; requireUser: preHandlerAsyncHookHandler; blobs: BlobStore };

/**
 * Downloads of the caller's own meeting: GET /api/v1/meetings/:id/export?format=txt|docx|pdf|srt|vtt
 * for the transcript, and the recording itself (audio.routes.ts).
 */
export function registerMeetingExportRoutes(app: FastifyInstance, deps: ExportRouteDeps): void {
  const { db, requireUser } = deps;
  registerAudioRoutes(app, deps);
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v1/meetings/:id/export',
    { preHandler: requireUser, schema: { tags: ['meetings'], params: IdParamsSchema, querystring: ExportQuerySchema } },
    async (request, reply) => {
      const meeting = await getMeeting(db, caller(request).user.id, request.params.id);
      if (!meeting) throw notFound('Meeting');
      const file = await exportMeeting(meeting, request.query.format);
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', contentDisposition(`${safeFileStem(meeting.title)}.${file.extension}`))
        // A transcript is personal: no shared cache may keep it.
        .header('cache-control', 'private, no-store')
        .send(file.body);
    },
  );
}
