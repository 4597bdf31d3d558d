import { z } from 'zod/mini';
import { defineEndpoint } from './endpoint.ts';

/**
 * An error the web app ran into, sent to Parley: the server forwards it to the operator's
 * error-reporting service (SENTRY_DSN) only while the person's Settings › Privacy "Error Reporting"
 * is on, with emails, tokens and ids taken out first. The page says where it happened by its path.
 */
export const CLIENT_ERROR_KINDS = ['unhandled-error', 'unhandled-rejection', 'render'] as const;

const text = (max: number) => z.string().check(z.maxLength(max));

export const ClientErrorReportSchema = z.object({
  kind: z.enum(CLIENT_ERROR_KINDS),
  /** The error's name ("TypeError"). */
  name: text(200),
  message: text(2_000),
  stack: z.optional(text(16_000)),
  /** React's component stack, for an error a page threw while rendering. */
  componentStack: z.optional(text(8_000)),
  /** The page's path, without its query or fragment. */
  page: text(500),
});
export type ClientErrorReport = z.infer<typeof ClientErrorReportSchema>;

export const errorReportEndpoints = {
  /** Accepted either way: `sent` says whether it went on to the operator's service. */
  send: defineEndpoint({
    method: 'POST',
    path: '/api/v1/error-reports',
    body: ClientErrorReportSchema,
    response: z.object({ sent: z.boolean() }),
    status: 202,
    apiTokens: false,
    tag: 'account',
    summary: "Report an error of the web app to the operator's error-reporting service (when the person allows it)",
  }),
};
