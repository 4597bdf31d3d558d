import type { ErrorCode } from '#shared/errors.ts';

/**
 * Why a call failed: the server's own codes, plus the ones only the browser can tell: NETWORK (no
 * answer at all), BAD_RESPONSE (an answer that is not what the endpoint promises) and UNKNOWN (an
 * error answer without Parley's error body, e.g. from a proxy).
 */
export type ApiErrorCode = ErrorCode | 'NETWORK' | 'BAD_RESPONSE' | 'UNKNOWN';

/** The one error every API call raises; `details` carries VALIDATION_FAILED's per-field details. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ApiErrorCode;
  readonly details: unknown;

  constructor({ status, code, message, details }: { status: number; code: ApiErrorCode; message: string; details?: unknown }) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export const NETWORK_MESSAGE = 'Parley cannot reach its server. Check your connection and try again.';
