import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ApiErrorBody, ErrorCode } from '#shared/errors.ts';
import { AppError } from '../lib/app-error.ts';
import { BadJsonError } from './json-body-parser.ts';

const FASTIFY_CLIENT_ERRORS: Record<number, ErrorCode> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

/** Maps anything thrown by a route to the /api/v1 wire format; unknown errors are logged, never leaked. */
export function toApiError(error: unknown, request: FastifyRequest): { status: number; body: ApiErrorBody } {
  if (error instanceof AppError) {
    const details = error.details === undefined ? {} : { details: error.details };
    return { status: error.status, body: { error: { code: error.code, message: error.message, ...details } } };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const details = error.validation.map((v) => ({
      path: `${error.validationContext ?? 'body'}${v.instancePath.replaceAll('/', '.')}`,
      message: v.message ?? 'is invalid',
    }));
    const first = details[0];
    const message = first ? `Invalid request: ${first.path} ${first.message}` : 'Invalid request';
    return { status: 400, body: { error: { code: 'VALIDATION_FAILED', message, details } } };
  }
  if (error instanceof BadJsonError) {
    return { status: 400, body: { error: { code: 'VALIDATION_FAILED', message: error.message } } };
  }
  const fastifyError = error as Partial<FastifyError>;
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code = FASTIFY_CLIENT_ERRORS[status] ?? 'VALIDATION_FAILED';
    return { status, body: { error: { code, message: fastifyError.message ?? 'Bad request' } } };
  }
  request.log.error({ err: error }, 'unhandled error');
  return {
    status: 500,
    body: { error: { code: 'INTERNAL', message: 'Something went wrong on our side. Please try again.' } },
  };
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply: FastifyReply) => {
    const { status, body } = toApiError(error, request);
    void reply.status(status).send(body);
  });
}
