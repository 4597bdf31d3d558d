import type { FastifyInstance } from 'fastify';

export class BadJsonError extends Error {
  constructor(detail: string) {
    super(`Could not parse request body as JSON: ${detail}`);
    this.name = 'BadJsonError';
  }
}

/**
 * Replaces Fastify's JSON parser: supabase-js sends `POST /logout` and the auth DELETEs with a JSON
 * content type and no body, which must read as `{}` rather than a 400.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(/^application\/(.+\+)?json/, { parseAs: 'string' }, (_req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, {});
      return;
    }
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      done(new BadJsonError(error instanceof Error ? error.message : String(error)), undefined);
    }
  });
}
