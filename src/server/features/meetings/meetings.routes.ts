import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateMeetingBodySchema,
  IdParamsSchema,
  MeetingDetailSchema,
  MeetingListQuerySchema,
  MeetingListResponseSchema,
  MeetingStatsSchema,
  SegmentParamsSchema,
  SpeakerParamsSchema,
  UpdateMeetingBodySchema,
  UpdateSegmentBodySchema,
  UpdateSpeakerBodySchema,
} from '#shared/contracts/meetings.ts';
import type { Db } from '#server/db/create-db.ts';
import { notFound } from '#server/lib/app-error.ts';
import { caller } from '../auth/api-guard.ts';
import { demoMeeting } from './sample-meetings.ts';
import {
  createMeeting,
  deleteMeetings,
  getMeeting,
  listMeetings,
  meetingStats,
  renameSpeaker,
  updateMeeting,
  updateSegmentText,
} from './meetings.repository.ts';

type MeetingsRouteDeps = { db: Db; requireUser: preHandlerAsyncHookHandler; removeAudio: (keys: string[]) => Promise<void> };

const DeletedSchema = z.object({ deleted: z.number().int() });

/** /api/v1/meetings: list with search and filters, read, create, edit, delete. Every route is the caller's own. */
export function registerMeetingRoutes(app: FastifyInstance, deps: MeetingsRouteDeps): void {
  const { db, requireUser } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['meetings'];

  api.get(
    '/api/v1/meetings',
    { preHandler: requireUser, schema: { tags, querystring: MeetingListQuerySchema, response: { 200: MeetingListResponseSchema } } },
    async (request) => listMeetings(db, caller(request).user.id, request.query),
  );

  api.post(
    '/api/v1/meetings',
    { preHandler: requireUser, schema: { tags, body: CreateMeetingBodySchema, response: { 201: MeetingDetailSchema } } },
    async (request, reply) => {
      const ownerId = caller(request).user.id;
      const body = request.body;
      const id = await createMeeting(db, {
        ownerId,
        title: body.title,
        source: body.source,
        status: 'recording',
        options: body.options,
        participants: body.participants,
        ...(body.startedAt ? { startedAt: body.startedAt } : {}),
        ...(body.audioSources ? { audioSources: body.audioSources } : {}),
      });
      const meeting = await getMeeting(db, ownerId, id);
      return reply.status(201).send(meeting!);
    },
  );

  // Public: the sample meeting behind the signed-out product tour (/demo).
  api.get('/api/v1/demo/meeting', { schema: { tags, security: [], response: { 200: MeetingDetailSchema } } }, async () => demoMeeting());

  api.get(
    '/api/v1/meetings/stats',
    { preHandler: requireUser, schema: { tags, response: { 200: MeetingStatsSchema } } },
    async (request) => meetingStats(db, caller(request).user.id),
  );

  // Registered before /:id so the literal path wins.
  api.delete(
    '/api/v1/meetings/samples',
    { preHandler: requireUser, schema: { tags, response: { 200: DeletedSchema } } },
    async (request) => {
      const { ids, audioKeys } = await deleteMeetings(db, caller(request).user.id, { samples: true });
      await deps.removeAudio(audioKeys);
      return { deleted: ids.length };
    },
  );

  api.get(
    '/api/v1/meetings/:id',
    { preHandler: requireUser, schema: { tags, params: IdParamsSchema, response: { 200: MeetingDetailSchema } } },
    async (request) => {
      const meeting = await getMeeting(db, caller(request).user.id, request.params.id);
      if (!meeting) throw notFound('Meeting');
      return meeting;
    },
  );

  api.patch(
    '/api/v1/meetings/:id',
    { preHandler: requireUser, schema: { tags, params: IdParamsSchema, body: UpdateMeetingBodySchema, response: { 200: MeetingDetailSchema } } },
    async (request) => {
      const ownerId = caller(request).user.id;
      if (!(await updateMeeting(db, ownerId, request.params.id, request.body))) throw notFound('Meeting');
      return (await getMeeting(db, ownerId, request.params.id))!;
    },
  );

  api.patch(
    '/api/v1/meetings/:id/segments/:segmentId',
    { preHandler: requireUser, schema: { tags, params: SegmentParamsSchema, body: UpdateSegmentBodySchema, response: { 200: MeetingDetailSchema } } },
    async (request) => {
      const ownerId = caller(request).user.id;
      const { id, segmentId } = request.params;
      if (!(await updateSegmentText(db, ownerId, id, segmentId, request.body.text))) throw notFound('Transcript line');
      return (await getMeeting(db, ownerId, id))!;
    },
  );

  api.patch(
    '/api/v1/meetings/:id/speakers/:speakerId',
    { preHandler: requireUser, schema: { tags, params: SpeakerParamsSchema, body: UpdateSpeakerBodySchema, response: { 200: MeetingDetailSchema } } },
    async (request) => {
      const ownerId = caller(request).user.id;
      const { id, speakerId } = request.params;
      if (!(await renameSpeaker(db, ownerId, id, speakerId, request.body.displayName))) throw notFound('Speaker');
      return (await getMeeting(db, ownerId, id))!;
    },
  );

  api.delete(
    '/api/v1/meetings/:id',
    { preHandler: requireUser, schema: { tags, params: IdParamsSchema, response: { 200: DeletedSchema } } },
    async (request) => {
      const { ids, audioKeys } = await deleteMeetings(db, caller(request).user.id, { id: request.params.id });
      if (ids.length === 0) throw notFound('Meeting');
      await deps.removeAudio(audioKeys);
      return { deleted: ids.length };
    },
  );
}
