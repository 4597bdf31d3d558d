import { ERROR_STATUS, type ErrorCode } from '#shared/errors.ts';

type AppErrorOptions = { details?: unknown; cause?: unknown };

/** The one error type services throw; the HTTP layer maps it to the wire format. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: unknown;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.details = options.details;
  }
}

export const notFound = (what: string): AppError => new AppError('NOT_FOUND', `${what} not found`);
