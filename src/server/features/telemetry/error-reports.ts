import {
  createStackParser,
  createTransport,
  dedupeIntegration,
  linkedErrorsIntegration,
  Scope,
  type ErrorEvent,
  type Event,
  type StackFrame,
} from '@sentry/core';
import { nodeStackLineParser, ServerRuntimeClient } from '@sentry/core/server';
import type { ClientErrorReport } from '#shared/contracts/error-reports.ts';
import { outboundFetch, type OutboundPolicy } from '#server/lib/outbound/outbound-fetch.ts';
import { scrubPath, scrubText } from './scrub.ts';

/**
 * Error reports to the operator's Sentry-compatible service (Sentry, GlitchTip) through Sentry's own
 * client (`@sentry/core`: event building, stack parsing, the envelope, rate limits and retry-after).
 * Not `@sentry/node`'s `init()`: that instruments the whole process and would catch every person's
 * errors, while a report here is made only for one person who allowed it, on purpose. Every request
 * goes through the outbound guard; every event is scrubbed before it is sent (scrub.ts).
 */
export type ErrorReporter = {
  /** A 5xx answered to the person's request, or a failed job of theirs. */
  captureServerError: (error: unknown, context: { kind: 'request' | 'job'; where: string }) => void;
  /** An error the web app sent (its stack parsed where the browser wrote it as V8 does). */
  captureClientError: (report: ClientErrorReport) => void;
  flush: (timeoutMs: number) => Promise<boolean>;
  close: (timeoutMs: number) => Promise<boolean>;
};

const stackParser = createStackParser(nodeStackLineParser());

export function createErrorReporter(options: { dsn: string; environment: string; release: string; policy: OutboundPolicy }): ErrorReporter {
  const client = new ServerRuntimeClient({
    dsn: options.dsn,
    environment: options.environment,
    release: `parley@${options.release}`,
    platform: 'node',
    runtime: { name: 'node', version: process.version },
    integrations: [linkedErrorsIntegration(), dedupeIntegration()],
    stackParser,
    sendClientReports: false,
    dataCollection: { userInfo: false },
    transport: (transportOptions) =>
      createTransport(transportOptions, async (request) => {
        const response = await outboundFetch(
          transportOptions.url,
          { method: 'POST', body: request.body, headers: { 'content-type': 'application/x-sentry-envelope' } },
          options.policy,
        );
        return {
          statusCode: response.status,
          headers: { 'x-sentry-rate-limits': response.headers.get('x-sentry-rate-limits'), 'retry-after': response.headers.get('retry-after') },
        };
      }),
    beforeSend: (event) => scrubEvent(event),
  });
  client.init();

  const scopeWith = (tags: Record<string, string>, transaction: string) => {
    const scope = new Scope();
    scope.setClient(client);
    scope.setTags(tags);
    scope.setTransactionName(transaction);
    return scope;
  };

  return {
    captureServerError: (error, { kind, where }) => {
      client.captureException(
        error,
        { mechanism: { type: kind === 'job' ? 'parley.job' : 'parley.request', handled: false } },
        scopeWith({ source: 'server', kind }, where),
      );
    },
    captureClientError: (report) => {
      const frames = report.stack ? stackParser(report.stack) : [];
      const event: Event = {
        level: 'error',
        platform: 'javascript',
        exception: {
          values: [
            {
              type: report.name || 'Error',
              value: report.message,
              mechanism: { type: report.kind === 'render' ? 'react.error-boundary' : `onerror.${report.kind}`, handled: report.kind === 'render' },
              ...(frames.length > 0 ? { stacktrace: { frames } } : {}),
            },
          ],
        },
        // A stack the parser could not read (Firefox's, Safari's) goes as text; React's component stack too.
        extra: {
          ...(report.stack && frames.length === 0 ? { stack: report.stack } : {}),
          ...(report.componentStack ? { componentStack: report.componentStack } : {}),
        },
      };
      client.captureEvent(event, {}, scopeWith({ source: 'web', kind: report.kind }, scrubPath(report.page)));
    },
    flush: async (timeoutMs) => client.flush(timeoutMs),
    close: async (timeoutMs) => client.close(timeoutMs),
  };
}

/** Every text of the event scrubbed; no user, no server name, no request data beyond what was set. */
function scrubEvent(event: ErrorEvent): ErrorEvent {
  delete event.user;
  delete event.server_name;
  delete event.request;
  delete event.breadcrumbs;
  if (event.message) event.message = scrubText(event.message);
  if (event.transaction) event.transaction = scrubPath(event.transaction);
  for (const value of event.exception?.values ?? []) {
    if (value.value) value.value = scrubText(value.value);
    for (const frame of value.stacktrace?.frames ?? []) scrubFrame(frame);
  }
  if (event.extra)
    event.extra = Object.fromEntries(Object.entries(event.extra).map(([key, value]) => [key, typeof value === 'string' ? scrubText(value) : value]));
  return event;
}

function scrubFrame(frame: StackFrame): void {
  if (frame.filename) frame.filename = scrubPath(frame.filename);
  if (frame.abs_path) frame.abs_path = scrubPath(frame.abs_path);
  delete frame.vars;
  delete frame.pre_context;
  delete frame.context_line;
  delete frame.post_context;
}
