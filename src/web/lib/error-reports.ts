import { errorReportEndpoints, type ClientErrorReport } from '#shared/contracts/error-reports.ts';
import { api } from './api-client.ts';
import { installation } from './config.ts';

/**
 * The web app's errors, sent to Parley: the server forwards them to the operator's error-reporting
 * service only while the person's Settings › Privacy "Error Reporting" is on, scrubbed on the way.
 * Through Parley rather than a browser SDK: the server decides with the person's switch as stored,
 * the page's same-origin policy needs no exception, the service never sees the person's address,
 * and the first page downloads nothing more. Nothing is sent where no service is configured.
 */
const MAX_REPORTS_PER_PAGE = 10;
const reported = new Set<string>();

const cut = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

export function reportClientError(error: unknown, kind: ClientErrorReport['kind'], componentStack?: string | null): void {
  if (!installation().errorReporting) return;
  const { name, message, stack } = describe(error);
  const key = `${kind}\n${name}\n${message}`;
  // One report of each error a page load, and a page caught in a loop sends a few, not thousands.
  if (reported.has(key) || reported.size >= MAX_REPORTS_PER_PAGE) return;
  reported.add(key);
  const body: ClientErrorReport = {
    kind,
    name: cut(name, 200),
    message: cut(message, 2_000),
    page: cut(window.location.pathname, 500),
    ...(stack ? { stack: cut(stack, 16_000) } : {}),
    ...(componentStack ? { componentStack: cut(componentStack, 8_000) } : {}),
  };
  // A report that cannot be sent is dropped: reporting must never raise an error of its own.
  void api(errorReportEndpoints.send, { body }).catch(() => undefined);
}

function describe(error: unknown): { name: string; message: string; stack: string | undefined } {
  if (error instanceof Error) return { name: error.name || 'Error', message: error.message, stack: error.stack };
  return { name: 'Error', message: typeof error === 'string' ? error : safeString(error), stack: undefined };
}

function safeString(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Listens for the page's unhandled errors and rejections while the signed-in app is open; returns the way to stop. */
export function listenForClientErrors(): () => void {
  const onError = (event: ErrorEvent) => reportClientError(event.error ?? event.message, 'unhandled-error');
  const onRejection = (event: PromiseRejectionEvent) => reportClientError(event.reason, 'unhandled-rejection');
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  return () => {
    window.removeEventListener('error', onError);
    window.removeEventListener('unhandledrejection', onRejection);
  };
}
