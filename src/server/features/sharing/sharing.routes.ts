import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParamsSchema } from '#shared/contracts/meetings.ts';
import {
  CreatedShareLinkSchema,
  RevokedShareLinkSchema,
  ShareLinkListSchema,
  ShareParamsSchema,
  SharedMeetingSchema,
  SharedTokenParamsSchema,
} from '#shared/contracts/sharing.ts';
import type { Db } from '#server/db/create-db.ts';
import { AppError, notFound } from '#server/lib/app-error.ts';
import { caller } from '../auth/api-guard.ts';
import { createShareLink, findSharedMeeting, listShareLinks, MAX_ACTIVE_LINKS_PER_MEETING, revokeShareLink } from './sharing.repository.ts';

type SharingRouteDeps = { db: Db; requireUser: preHandlerAsyncHookHandler; publicUrl: string };

/**
 * Share links: the owner creates, lists and revokes links to one meeting; anyone holding an active
 * link reads the meeting through /api/v1/shared/:token without signing in.
 */
export function registerSharingRoutes(app: FastifyInstance, deps: SharingRouteDeps): void {
  const { db, requireUser } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['sharing'];
  const shareUrl = (token: string) => `${deps.publicUrl.replace(/\/+$/, '')}/shared/${token}`;

  api.post(
    '/api/v1/meetings/:id/share',
    { preHandler: requireUser, schema: { tags, params: IdParamsSchema, response: { 201: CreatedShareLinkSchema } } },
    async (request, reply) => {
      const result = await createShareLink(db, caller(request).user.id, request.params.id);
      if (result.kind === 'not-found') throw notFound('Meeting');
      if (result.kind === 'too-many') {
        throw new AppError('CONFLICT', `This meeting already has ${MAX_ACTIVE_LINKS_PER_MEETING} active share links. Revoke one before creating another.`);
      }
      return reply.status(201).send({ ...result.link, token: result.token, url: shareUrl(result.token) });
    },
  );

  api.get(
    '/api/v1/meetings/:id/share',
    { preHandler: requireUser, schema: { tags, params: IdParamsSchema, response: { 200: ShareLinkListSchema } } },
    async (request) => {
      const items = await listShareLinks(db, caller(request).user.id, request.params.id);
      if (!items) throw notFound('Meeting');
      return { items };
    },
  );

  api.delete(
    '/api/v1/meetings/:id/share/:shareId',
    { preHandler: requireUser, schema: { tags, params: ShareParamsSchema, response: { 200: RevokedShareLinkSchema } } },
    async (request) => {
      const { id, shareId } = request.params;
      if (!(await revokeShareLink(db, caller(request).user.id, id, shareId))) throw notFound('Share link');
      return { revoked: true as const };
    },
  );

  api.get(
    '/api/v1/shared/:token',
    { schema: { tags, params: SharedTokenParamsSchema, response: { 200: SharedMeetingSchema } } },
    async (request, reply) => {
      const meeting = await findSharedMeeting(db, request.params.token);
      // One message for revoked, deleted and never-issued links: a reader cannot tell them apart.
      if (!meeting) throw new AppError('NOT_FOUND', 'This share link does not exist or has been revoked');
      void reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex');
      return meeting;
    },
  );
}
