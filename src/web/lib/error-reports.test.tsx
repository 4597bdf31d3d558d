import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubAppConfig } from '#tests/support/web/app-config.ts';

type Sent = { path: string; method: string; body: Record<string, unknown> };

let sent: Sent[];

beforeEach(() => {
  sent = [];
  vi.resetModules(); // each test starts with a fresh page: nothing reported yet
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      sent.push({ path: String(input), method: init.method ?? 'GET', body: JSON.parse(String(init.body)) as Record<string, unknown> });
      return new Response(JSON.stringify({ sent: true }), { status: 202, headers: { 'content-type': 'application/json' } });
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const load = () => import('./error-reports.ts');

describe('the web app’s errors, sent to Parley for the operator’s error-reporting service', () => {
  it('sends nothing where the installation has no error-reporting service', async () => {
    stubAppConfig({ errorReporting: false });
    const { reportClientError } = await load();
    reportClientError(new TypeError('boom'), 'unhandled-error');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent).toEqual([]);
  });

  it('sends an error once with its name, message, stack and page; at most ten a page load', async () => {
    stubAppConfig({ errorReporting: true, errorReportingHost: 'glitchtip.example.com' });
    const { reportClientError } = await load();
    const error = new TypeError('Cannot read properties of undefined');
    reportClientError(error, 'render', '\n    at MeetingPage');
    reportClientError(error, 'render', '\n    at MeetingPage');
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({
      path: '/api/v1/error-reports',
      method: 'POST',
      body: { kind: 'render', name: 'TypeError', message: 'Cannot read properties of undefined', page: '/', componentStack: '\n    at MeetingPage' },
    });
    expect(String(sent[0]!.body.stack)).toContain('TypeError');
    for (let i = 0; i < 20; i++) reportClientError(new Error(`loop ${i}`), 'unhandled-rejection');
    await vi.waitFor(() => expect(sent).toHaveLength(10));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent).toHaveLength(10);
  });

  it('hears the page’s unhandled errors and rejections while listening, and not after', async () => {
    stubAppConfig({ errorReporting: true, errorReportingHost: 'glitchtip.example.com' });
    const { listenForClientErrors } = await load();
    const stop = listenForClientErrors();
    window.dispatchEvent(new ErrorEvent('error', { error: new RangeError('out of range'), message: 'out of range' }));
    const rejection = new Event('unhandledrejection') as Event & { reason: unknown };
    rejection.reason = 'a plain string reason';
    window.dispatchEvent(rejection);
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    expect(sent.map((s) => [s.body.kind, s.body.name, s.body.message])).toEqual([
      ['unhandled-error', 'RangeError', 'out of range'],
      ['unhandled-rejection', 'Error', 'a plain string reason'],
    ]);
    stop();
    const later = new Event('unhandledrejection') as Event & { reason: unknown };
    later.reason = new Error('after stop');
    window.dispatchEvent(later);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent).toHaveLength(2);
  });
});
