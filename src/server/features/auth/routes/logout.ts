import type { FastifyInstance } from 'fastify';
import type { AuthContext } from '../auth-context.ts';
import { authenticate } from '../authenticate.ts';
import { errors } from '../gotrue-error.ts';
import { queryParam } from '../request-input.ts';
import { endSessions, type LogoutScope } from '../sessions.ts';

const SCOPES: readonly LogoutScope[] = ['global', 'local', 'others'];

/** POST /logout?scope= (auth-contract §4.4): 204 with no body, as the client does not read one. */
export function registerLogout(app: FastifyInstance, ctx: AuthContext): void {
  app.post('/logout', async (request, reply) => {
    const scope = queryParam(request, 'scope') ?? 'global';
    if (!SCOPES.includes(scope as LogoutScope)) throw errors.validation(`Unsupported logout scope "${scope}"`);
    const { user, session } = await authenticate(ctx, request);
    await endSessions(ctx, { userId: user.id, sessionId: session.id, scope: scope as LogoutScope });
    return reply.status(204).send();
  });
}
