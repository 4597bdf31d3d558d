import type { FastifyRequest } from 'fastify';
import { AppError } from '#server/lib/app-error.ts';
import type { AuthContext } from './auth-context.ts';
import { authenticate, type Authenticated } from './authenticate.ts';
import { GoTrueError } from './gotrue-error.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the /api/v1 guard on every authenticated route. */
    auth?: Authenticated;
  }
}

/**
 * The /api/v1 bearer guard: the same checks as /auth/v1 (signature, expiry, live session), reported
 * in the API's own error format. Any failure is a 401 so the web app knows to refresh or sign in.
 */
export function createApiGuard(ctx: AuthContext) {
  return async function requireUser(request: FastifyRequest): Promise<void> {
    try {
      request.auth = await authenticate(ctx, request);
    } catch (error) {
      if (error instanceof GoTrueError) throw new AppError('UNAUTHENTICATED', error.message);
      throw error;
    }
  };
}

/** The authenticated caller of a guarded route (the guard has run, so it is there). */
export function caller(request: FastifyRequest): Authenticated {
  if (!request.auth) throw new AppError('UNAUTHENTICATED', 'This endpoint requires a valid Bearer token');
  return request.auth;
}
