import type { FastifyRequest } from 'fastify';
import { AppError } from '#server/lib/app-error.ts';
import type { AuthContext } from './auth-context.ts';
import { authenticateToken, type Authenticated } from './authenticate.ts';
import { GoTrueError } from './gotrue-error.ts';
import { bearerToken } from './request-input.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the /api/v1 guard on every authenticated route. */
    auth?: Authenticated;
  }
}

/**
 * The /api/v1 bearer guard: signature, expiry, live session and assurance level (authenticateToken),
 * reported in the API's own error format. A session that still owes its MFA challenge is a 403
 * INSUFFICIENT_AAL (refreshing will not help); any other failure is a 401 so the web app knows to
 * refresh or sign in.
 */
export function createApiGuard(ctx: AuthContext) {
  return async function requireUser(request: FastifyRequest): Promise<void> {
    try {
      request.auth = await authenticateToken(ctx, bearerToken(request));
    } catch (error) {
      if (error instanceof GoTrueError) throw toApiAuthError(error);
      throw error;
    }
  };
}

/** An auth failure in the /api/v1 vocabulary. */
function toApiAuthError(error: GoTrueError): AppError {
  if (error.code === 'insufficient_aal') return new AppError('INSUFFICIENT_AAL', error.message);
  return new AppError('UNAUTHENTICATED', error.message);
}

/** The authenticated caller of a guarded route (the guard has run, so it is there). */
export function caller(request: FastifyRequest): Authenticated {
  if (!request.auth) throw new AppError('UNAUTHENTICATED', 'This endpoint requires a valid Bearer token');
  return request.auth;
}
