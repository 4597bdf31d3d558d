import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { StatusResponseSchema } from '#shared/contracts/status.ts';
import { collectStatus, type StatusDeps } from './status.service.ts';

/**
 * GET /api/v1/status (signed-in): which transcription engine is in use, whether each known engine
 * is available and why not, the speech models installed, and the job queue. Nothing in it belongs
 * to another person: engines and models are the installation's, the queue is counts only.
 */
export function registerStatusRoutes(app: FastifyInstance, deps: StatusDeps & { requireUser: preHandlerAsyncHookHandler }): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v1/status',
    { preHandler: deps.requireUser, schema: { tags: ['status'], response: { 200: StatusResponseSchema } } },
    async () => collectStatus(deps),
  );
}
