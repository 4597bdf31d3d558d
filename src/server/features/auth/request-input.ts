import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { GoTrueError } from './gotrue-error.ts';

/**
 * Lenient body parsing the supabase-js client needs (auth-contract §1.2): unknown fields are
 * ignored, `null` means absent, and a wrong type is GoTrue's bad_json error.
 */
export const optionalString = z
  .string()
  .nullish()
  .transform((v) => v ?? undefined);
export const optionalObject = z
  .record(z.string(), z.unknown())
  .nullish()
  .transform((v) => v ?? undefined);
export const optionalBoolean = z
  .boolean()
  .nullish()
  .transform((v) => v ?? undefined);

export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : 'body';
  throw new GoTrueError(400, 'bad_json', `Could not parse request body as JSON: ${where}: ${issue?.message ?? 'invalid'}`);
}

export function queryParam(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

export const userAgent = (request: FastifyRequest): string | null => request.headers['user-agent']?.slice(0, 512) ?? null;

const EMAIL_PATTERN = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** GoTrue's email checks and texts; returns the lower-cased address. */
export function validateEmail(email: string | undefined): string {
  if (email === undefined || email.trim() === '') throw new GoTrueError(400, 'validation_failed', 'An email address is required');
  const trimmed = email.trim();
  if (trimmed.length > 255) throw new GoTrueError(400, 'validation_failed', 'An email address is too long');
  if (!EMAIL_PATTERN.test(trimmed)) throw new GoTrueError(400, 'validation_failed', 'Unable to validate email address: invalid format');
  return trimmed.toLowerCase();
}
