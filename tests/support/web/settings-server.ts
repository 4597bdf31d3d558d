import { vi } from 'vitest';
import type { BillingOverview } from '#shared/contracts/billing.ts';
import {
  readSettingsDocument,
  SETTINGS_PATCH_SCHEMAS,
  SETTINGS_TABS,
  SettingsTabSchema,
  settingsDefaults,
  type SettingsResponse,
} from '#shared/contracts/settings.ts';

type Failure = { status: number; body?: unknown } | 'offline';

/**
 * For jsdom tests: the settings endpoints behind `fetch`, answering as the real server does (its
 * shared contract: defaults, per-tab partial merge, strict bodies, savedTabs). The real server is
 * covered by settings.int.test.ts and the browser test; here the screen is what is under test.
 */
export function installSettingsServer(account = { name: 'Ada Lovelace', email: 'ada@example.com' }) {
  let document: Record<string, Record<string, unknown>> = {};
  const failures: { failure: Failure; method?: string }[] = [];
  const requests: { method: string; path: string; body: unknown; authorization: string | null }[] = [];
  // Answers held until released: the settings' own (hold) and the Billing plan's (holdBilling).
  const gates: { settings?: Promise<void>; billing?: Promise<void> } = {};
  const holdUntilReleased = (which: keyof typeof gates) => {
    let release = () => {};
    gates[which] = new Promise<void>((resolve) => {
      release = () => {
        delete gates[which];
        resolve();
      };
    });
    return release;
  };
  // Billing's plan and usage (GET /api/v1/billing): no plan by default, as a self-hosted installation answers.
  let overview: BillingOverview = {
    billing: false,
    plan: null,
    subscription: null,
    trialAvailable: false,
    paymentFailure: null,
    usage: { hoursThisMonth: 0, meetingsThisMonth: 0, periodStart: '2026-12-01T00:00:00.000Z', periodEnd: '2027-01-01T00:00:00.000Z', hiddenMeetings: 0 },
  };

  const respond = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const answer = (): SettingsResponse => ({
    settings: readSettingsDocument(document, settingsDefaults(account)),
    savedTabs: SETTINGS_TABS.filter((tab) => document[tab] !== undefined),
  });

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const path = String(input);
    const method = init.method ?? 'GET';
    // Outside the settings' own requests, failures and holds: the Billing tab reads it beside them.
    if (method === 'GET' && path === '/api/v1/billing') {
      if (gates.billing) await gates.billing;
      return respond(200, overview);
    }
    const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    requests.push({ method, path, body, authorization: new Headers(init.headers).get('authorization') });
    if (gates.settings) await gates.settings;
    const index = failures.findIndex((f) => f.method === undefined || f.method === method);
    const failure = index === -1 ? undefined : failures.splice(index, 1)[0]?.failure;
    if (failure === 'offline') throw new TypeError('Failed to fetch');
    if (failure)
      return respond(failure.status, failure.body ?? { error: { code: 'INTERNAL', message: 'Something went wrong on our side. Please try again.' } });
    if (method === 'GET' && path === '/api/v1/settings') return respond(200, answer());
    const tab = SettingsTabSchema.safeParse(/^\/api\/v1\/settings\/(\w+)$/.exec(path)?.[1]);
    if (method === 'PUT' && tab.success) {
      const patch = SETTINGS_PATCH_SCHEMAS[tab.data].safeParse(body);
      if (!patch.success) return respond(400, { error: { code: 'VALIDATION_FAILED', message: 'Invalid request' } });
      const current = readSettingsDocument(document, settingsDefaults(account))[tab.data];
      document = { ...document, [tab.data]: { ...current, ...patch.data } };
      return respond(200, answer());
    }
    return respond(404, { error: { code: 'NOT_FOUND', message: `No route for ${method} ${path}` } });
  });
  vi.stubGlobal('fetch', fetchMock);

  return {
    requests,
    /** What GET /api/v1/billing answers from now on. */
    setBilling: (next: BillingOverview) => {
      overview = next;
    },
    /** Holds GET /api/v1/billing's answers until the returned function is called. */
    holdBilling: () => holdUntilReleased('billing'),
    /** What the server has stored, tab by tab (only tabs that were saved). */
    stored: () => document,
    seed: (next: Record<string, Record<string, unknown>>) => {
      document = next;
    },
    /** The next request (of this method, when given) fails: an error status with a body, or no connection at all. */
    failNext: (failure: Failure, method?: 'GET' | 'PUT') => failures.push({ failure, ...(method ? { method } : {}) }),
    /** Holds every answer until the returned function is called. */
    hold: () => holdUntilReleased('settings'),
  };
}
