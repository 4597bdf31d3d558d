import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParamsSchema } from '#shared/contracts/meetings.ts';
import type { Db } from '#server/db/create-db.ts';
import { AppError, notFound } from '#server/lib/app-error.ts';
import type { BlobStore } from '#server/lib/blob-store.ts';
import { caller } from '../auth/api-guard.ts';
import { parseRange } from './byte-range.ts';
import { contentDisposition, safeFileStem } from './content-disposition.ts';

type AudioRouteDeps = { db: Db; requireUser: preHandlerAsyncHookHandler; blobs: BlobStore };

/**
 * GET /api/v1/meetings/:id/audio: the caller's own recording, with byte ranges so players can seek
 * and large files can resume. Only the owner's meeting is looked up, so another person's id is a 404.
 */
export function registerAudioRoutes(app: FastifyInstance, deps: AudioRouteDeps): void {
  const { db, requireUser, blobs } = deps;
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v1/meetings/:id/audio',
    { preHandler: requireUser, schema: { tags: ['meetings'], params: IdParamsSchema } },
    async (request, reply) => {
      const meeting = await db
        .selectFrom('meetings')
        .select(['title', 'audio_key', 'audio_mime'])
        .where('id', '=', request.params.id)
        .where('owner_id', '=', caller(request).user.id)
        .executeTakeFirst();
      if (!meeting) throw notFound('Meeting');
      if (!meeting.audio_key) throw new AppError('NOT_FOUND', 'This meeting has no audio recording');
      const key = meeting.audio_key;
      if (!(await blobs.exists(key))) {
        request.log.error({ meetingId: request.params.id, key }, 'audio blob missing');
        throw new AppError('NOT_FOUND', 'The audio file of this meeting is missing');
      }
      const size = await blobs.size(key);
      // The key names an immutable blob; the size changes while a recording is still growing.
      const etag = `"${key.replace(/^.*\//, '').replace(/\..*$/, '')}-${size}"`;
      const ifRange = request.headers['if-range'];
      const range = ifRange === undefined || ifRange === etag ? parseRange(request.headers.range, size) : ({ kind: 'full' } as const);
      const extension = key.slice(key.lastIndexOf('.') + 1);

      void reply
        .header('accept-ranges', 'bytes')
        .header('etag', etag)
        .header('cache-control', 'private, no-cache')
        .header('content-disposition', contentDisposition(`${safeFileStem(meeting.title)}.${extension}`, 'inline'));
      if (range.kind === 'unsatisfiable') {
        return reply
          .status(416)
          .header('content-range', `bytes */${size}`)
          .send({ error: { code: 'VALIDATION_FAILED', message: `The requested range is outside the recording (${size} bytes)` } });
      }
      void reply.header('content-type', meeting.audio_mime ?? 'application/octet-stream');
      if (range.kind === 'full') {
        return reply.header('content-length', size).send(blobs.createReadStream(key));
      }
      return reply
        .status(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
        .header('content-length', range.end - range.start + 1)
        .send(blobs.createReadStream(key, { start: range.start, end: range.end }));
    },
  );
}
