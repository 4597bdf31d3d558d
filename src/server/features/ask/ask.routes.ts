import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { askEndpoints } from '#shared/contracts/ask.ts';
import { AppError } from '#server/lib/app-error.ts';
import type { Router } from '#server/http/endpoint-route.ts';
import { caller } from '../auth/api-guard.ts';
import type { AskService } from './ask.service.ts';

const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * Aborted when the response closes before it was finished: the person went away, and the model's
 * answer (its request, and the tokens it would still spend) goes with them.
 */
function clientGone(reply: FastifyReply): AbortSignal {
  const aborted = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) aborted.abort(new Error('The client went away'));
  });
  return aborted.signal;
}

/**
 * POST /api/v1/ask (JSON) and POST /api/v1/ask/stream (Server-Sent Events: `token` events with the
 * answer's text as it is ready, then `done` with the whole answer and its citations). Errors found
 * before the answer begins (validation, a meeting the caller may not read, the rate limit) answer as
 * any API error does; one after it began ends the stream with an `error` event.
 */
export function registerAskRoutes(route: Router, deps: { ask: AskService }): void {
  route(askEndpoints.ask, async (request, reply) => deps.ask.ask(caller(request).user.id, request.body, undefined, clientGone(reply)));

  route(askEndpoints.stream, async (request, reply) => {
    const userId = caller(request).user.id;
    const stream = new PassThrough();
    const gone = clientGone(reply);
    let resolveStart!: () => void;
    const begun = new Promise<void>((resolve) => (resolveStart = resolve));
    const work = deps.ask
      .ask(
        userId,
        request.body,
        (text) => {
          resolveStart();
          stream.write(event('token', { text }));
        },
        gone,
      )
      .then((answer) => {
        stream.end(event('done', answer));
      });
    // Nothing is sent until the answer begins: a 404 or a 429 is then an ordinary error answer.
    await Promise.race([begun, work]);
    work.catch((error: unknown) => {
      if (gone.aborted) return void stream.destroy();
      request.log.error({ err: error }, 'Ask: a streamed answer failed after it began');
      const known = error instanceof AppError;
      stream.end(event('error', { code: known ? error.code : 'INTERNAL', message: known ? error.message : 'The answer could not be finished.' }));
    });
    return reply.type('text/event-stream; charset=utf-8').header('cache-control', 'no-cache, no-transform').header('x-accel-buffering', 'no').send(stream);
  });
}
