import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * An error in GoTrue's vocabulary (auth-contract §3): HTTP status, a stable string code and the exact
 * message supabase-js and apps match on. `extra` carries fields such as `weak_password`.
 */
export class GoTrueError extends Error {
  readonly status: number;
  readonly code: string;
  readonly extra: Record<string, unknown>;

  constructor(status: number, code: string, message: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.name = 'GoTrueError';
    this.status = status;
    this.code = code;
    this.extra = extra;
  }
}

export const API_VERSION_HEADER = 'x-supabase-api-version';
export const API_VERSION_2024 = '2024-01-01';

/** Clients that send an API version of 2024-01-01 or later get the `{code, message}` body shape. */
export function wantsVersionedErrors(request: FastifyRequest): boolean {
  const value = request.headers[API_VERSION_HEADER];
  const version = Array.isArray(value) ? value[0] : value;
  if (!version || !/^\d{4}-\d{2}-\d{2}$/.test(version)) return false;
  return version >= API_VERSION_2024;
}

export function sendGoTrueError(request: FastifyRequest, reply: FastifyReply, error: GoTrueError): FastifyReply {
  if (wantsVersionedErrors(request)) {
    return reply
      .status(error.status)
      .header('X-Supabase-Api-Version', API_VERSION_2024)
      .send({ code: error.code, message: error.message, ...error.extra });
  }
  const legacy: Record<string, unknown> = { code: error.status, error_code: error.code, msg: error.message, ...error.extra };
  if (error.status >= 500) legacy.error_id = request.id;
  return reply.status(error.status).header('x-sb-error-code', error.code).send(legacy);
}

// The errors more than one endpoint raises, with GoTrue's exact texts.
export const errors = {
  validation: (message: string) => new GoTrueError(400, 'validation_failed', message),
  invalidCredentials: () => new GoTrueError(400, 'invalid_credentials', 'Invalid login credentials'),
  overRequestRateLimit: () => new GoTrueError(429, 'over_request_rate_limit', 'Request rate limit reached'),
  emailFrequency: (seconds: number) =>
    new GoTrueError(429, 'over_email_send_rate_limit', `For security purposes, you can only request this after ${seconds} seconds.`),
  emailBudget: () => new GoTrueError(429, 'over_email_send_rate_limit', 'email rate limit exceeded'),
  noAuthorization: () => new GoTrueError(401, 'no_authorization', 'This endpoint requires a valid Bearer token'),
  sessionNotFound: () => new GoTrueError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist'),
  userNotFound: () => new GoTrueError(403, 'user_not_found', 'User from sub claim in JWT does not exist'),
  /** Ours, for everything outside /auth/v1: a user with MFA signed in with the password only. */
  insufficientAal: () =>
    new GoTrueError(403, 'insufficient_aal', 'Two-factor verification is required: enter the code from your authenticator app to continue'),
  userBanned: (status: number) => new GoTrueError(status, 'user_banned', 'User is banned'),
  otpExpired: (viaLink: boolean) => new GoTrueError(403, 'otp_expired', viaLink ? 'Email link is invalid or has expired' : 'Token has expired or is invalid'),
  unexpected: () => new GoTrueError(500, 'unexpected_failure', 'Unexpected failure, please check server logs for more information'),
};
