import { z } from 'zod/mini';
import { defineEndpoint } from './endpoint.ts';

/**
 * Settings › Privacy "Request Data Export": one zip of everything of the person (account.json with
 * the account, settings, meetings with their transcripts and notes; the recordings under audio/),
 * built in the background and offered for download for 7 days.
 */
export const DataExportSchema = z.object({
  id: z.uuid(),
  status: z.enum(['queued', 'running', 'ready', 'failed']),
  progress: z.nullable(z.number().check(z.gte(0), z.lte(1))),
  bytes: z.nullable(z.number().check(z.int(), z.nonnegative())),
  failureReason: z.nullable(z.string()),
  createdAt: z.string(),
  readyAt: z.nullable(z.string()),
  /** The archive is deleted then; null until it is ready. */
  expiresAt: z.nullable(z.string()),
});
export type DataExport = z.infer<typeof DataExportSchema>;

/** The latest export of the caller, or none (never requested, or expired). */
export const LatestDataExportSchema = z.object({ export: z.nullable(DataExportSchema) });

export const DataExportParamsSchema = z.object({ id: z.uuid() });

export const dataExportEndpoints = {
  request: defineEndpoint({
    method: 'POST',
    path: '/api/v1/me/exports',
    response: DataExportSchema,
    status: 202,
    tag: 'account',
    summary: 'Starts building an archive of all of the caller’s data (one at a time: an export under way is answered again)',
  }),
  latest: defineEndpoint({ method: 'GET', path: '/api/v1/me/exports/latest', response: LatestDataExportSchema, tag: 'account' }),
  download: defineEndpoint({
    method: 'GET',
    path: '/api/v1/me/exports/:id/download',
    params: DataExportParamsSchema,
    response: 'file',
    tag: 'account',
    summary: 'The finished archive (application/zip), until it expires',
  }),
};
