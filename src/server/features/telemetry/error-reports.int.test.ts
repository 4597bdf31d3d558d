import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { ClientErrorReport } from '#shared/contracts/error-reports.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { startFakeChatService, type FakeChatService } from '#tests/support/fake-openai-chat.ts';
import { startFakeSentry, type FakeSentry } from '#tests/support/fake-sentry.ts';

// Settings › Privacy "Error Reporting" (issue 34): a person's errors — the web app's, their 5xx
// answers, their jobs that failed for good — reach the operator's Sentry-compatible service (a local
// one speaking Sentry's envelope protocol) only while their switch is on, scrubbed of emails, tokens
// and ids; with it off, or with no SENTRY_DSN, nothing is sent.

const ENV = { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' };
const MEETING_ID = '3f2b8c1e-9a4d-4e5f-8b6a-1c2d3e4f5a6b';

type User = { token: string; userId: string; email: string };

const report = (message: string): ClientErrorReport => ({
  kind: 'unhandled-error',
  name: 'TypeError',
  message,
  stack: `TypeError: ${message}\n    at saveTitle (http://127.0.0.1:3000/assets/meeting-4f2a.js?v=1:12:34)\n    at HTMLButtonElement.onClick (http://127.0.0.1:3000/assets/index-9c1b.js:1:200)`,
  page: `/meetings/${MEETING_ID}?tab=notes&code=123456`,
});

describe('error reports to the operator’s Sentry-compatible service', () => {
  let t: TestApp;
  let sentry: FakeSentry;
  let chat: FakeChatService;

  const inject = (user: User | undefined, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({ method, url, payload: payload as object, headers: user ? { authorization: `Bearer ${user.token}` } : {} });
  const errorReporting = async (user: User, on: boolean) =>
    expect((await inject(user, 'PUT', '/api/v1/settings/privacy', { errorReporting: on })).statusCode).toBe(200);
  const flush = () => t.deps.services.telemetry.flush();

  beforeAll(async () => {
    sentry = await startFakeSentry();
    chat = await startFakeChatService({ apiKey: 'the-right-key' });
    t = await buildTestApp({
      env: {
        ...ENV,
        SENTRY_DSN: sentry.dsn,
        SENTRY_ENVIRONMENT: 'staging',
        // Notes by an LLM that refuses the key: the notes job fails for good on its first try.
        NOTES_ENGINE: 'llm',
        NOTES_LLM_URL: chat.url,
        NOTES_LLM_MODEL: 'fake-notes-model',
        NOTES_LLM_KEY: 'a-wrong-key',
        NOTES_MAX_ATTEMPTS: '1',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await sentry?.close();
    await chat?.close();
  });
  afterEach(() => sentry.behave('ok'));

  it('a web app error, switch on (the default): sent under the DSN’s key, with emails, tokens, ids and query strings taken out', async () => {
    const ada = await signUpUser(t.app, 'ada');
    const before = sentry.events().length;
    const sent = await inject(ada, 'POST', '/api/v1/error-reports', report(`Could not save for ${ada.email} with eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln`));
    expect(sent.statusCode).toBe(202);
    expect(sent.json()).toEqual({ sent: true });
    await flush();
    const events = sentry.events().slice(before);
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event!.exception?.values?.[0]).toMatchObject({ type: 'TypeError', value: 'Could not save for [email] with [token]' });
    expect(event!.exception?.values?.[0]?.stacktrace?.frames?.map((f) => f.filename)).toEqual([
      'http://127.0.0.1:3000/assets/index-9c1b.js',
      'http://127.0.0.1:3000/assets/meeting-4f2a.js',
    ]);
    expect(event).toMatchObject({ transaction: '/meetings/[id]', environment: 'staging', tags: { source: 'web', kind: 'unhandled-error' } });
    expect(event!.user).toBeUndefined();
    expect(event!.server_name).toBeUndefined();
    const raw = JSON.stringify(sentry.envelopes);
    for (const secret of [ada.email, ada.userId, MEETING_ID, 'eyJhbGciOiJIUzI1NiJ9', '123456']) expect(raw).not.toContain(secret);
  });

  it('a web app error, switch off: accepted, not sent; on again, sent again', async () => {
    const bo = await signUpUser(t.app, 'bo');
    await errorReporting(bo, false);
    const requests = sentry.requests();
    const refused = await inject(bo, 'POST', '/api/v1/error-reports', report('while off'));
    expect(refused.json()).toEqual({ sent: false });
    await flush();
    expect(sentry.requests()).toBe(requests);
    expect(sentry.events().some((e) => e.exception?.values?.[0]?.value === 'while off')).toBe(false);

    await errorReporting(bo, true);
    expect((await inject(bo, 'POST', '/api/v1/error-reports', report('while on'))).json()).toEqual({ sent: true });
    await flush();
    expect(sentry.events().filter((e) => e.exception?.values?.[0]?.value === 'while on')).toHaveLength(1);
  });

  it('a 5xx answered to the person: reported with the route as written, never its URL; nothing for one whose switch is off', async () => {
    const on = await signUpUser(t.app, 'on');
    const off = await signUpUser(t.app, 'off');
    await errorReporting(off, false);
    const before = sentry.events().length;
    // A real failure: the table the route reads is gone for a moment.
    await sql`alter table notifications rename to notifications_away`.execute(t.deps.database.db);
    try {
      expect((await inject(off, 'GET', '/api/v1/notifications?limit=5')).statusCode).toBe(500);
      expect((await inject(on, 'GET', '/api/v1/notifications?limit=5')).statusCode).toBe(500);
      // A refusal is no error: 404s and 400s are not reported.
      expect((await inject(on, 'GET', `/api/v1/meetings/${MEETING_ID}`)).statusCode).toBe(404);
      await flush();
    } finally {
      await sql`alter table notifications_away rename to notifications`.execute(t.deps.database.db);
    }
    const events = sentry.events().slice(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ platform: 'node', transaction: 'GET /api/v1/notifications', tags: { source: 'server', kind: 'request' } });
    expect(events[0]!.exception?.values?.[0]?.value).toMatch(/notifications/);
    expect(events[0]!.exception?.values?.[0]?.stacktrace?.frames?.length).toBeGreaterThan(0);
  });

  it('a job of the person’s that failed for good is reported; not while the switch is off', async () => {
    const on = await signUpUser(t.app, 'jobs-on');
    const off = await signUpUser(t.app, 'jobs-off');
    await errorReporting(off, false);
    const before = sentry.events().length;
    const notesFailed = async (user: User, title: string) => {
      const imported = await inject(user, 'POST', '/api/v1/meetings/imports', { fileName: 'sync.txt', content: 'Sam: The budget is approved.', title });
      expect(imported.statusCode).toBe(201);
      const { id } = imported.json() as { id: string };
      await expect
        .poll(async () => (await t.deps.database.db.selectFrom('meeting_notes').select('status').where('meeting_id', '=', id).executeTakeFirst())?.status, {
          timeout: 30_000,
        })
        .toBe('failed');
    };
    await notesFailed(off, 'Off sync');
    await notesFailed(on, 'On sync');
    await flush();
    const events = sentry.events().slice(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ transaction: 'job notes', tags: { source: 'server', kind: 'job' } });
    expect(events[0]!.exception?.values?.[0]?.value).toContain('refused the API key');
  });

  it('a service that fails, stalls or limits the rate never holds up or breaks the person’s request', async () => {
    const cy = await signUpUser(t.app, 'cy');
    for (const behaviour of ['server-error', 'rate-limited', 'stall'] as const) {
      sentry.behave(behaviour);
      const started = Date.now();
      const answered = await inject(cy, 'POST', '/api/v1/error-reports', report(`while ${behaviour}`));
      expect(answered.statusCode).toBe(202);
      expect(Date.now() - started).toBeLessThan(5_000);
    }
    sentry.behave('ok');
    expect((await inject(cy, 'GET', '/api/v1/settings')).statusCode).toBe(200);
  });

  it('refuses what is not a report of the signed-in person', async () => {
    expect((await inject(undefined, 'POST', '/api/v1/error-reports', report('anonymous'))).statusCode).toBe(401);
    const di = await signUpUser(t.app, 'di');
    expect((await inject(di, 'POST', '/api/v1/error-reports', { ...report('x'), message: 'y'.repeat(2_001) })).statusCode).toBe(400);
    expect((await inject(di, 'POST', '/api/v1/error-reports', { ...report('x'), kind: 'other' })).statusCode).toBe(400);
  });
});

describe('without SENTRY_DSN', () => {
  it('nothing is sent, whatever the switch says', async () => {
    const sentry = await startFakeSentry();
    const t = await buildTestApp({ env: ENV });
    try {
      const user = await signUpUser(t.app, 'plain');
      const answered = await t.app.inject({
        method: 'POST',
        url: '/api/v1/error-reports',
        payload: report('nowhere'),
        headers: { authorization: `Bearer ${user.token}` },
      });
      expect(answered.json()).toEqual({ sent: false });
      await t.deps.services.telemetry.flush();
      expect(sentry.requests()).toBe(0);
    } finally {
      await t.close();
      await sentry.close();
    }
  });
});

describe('a DSN whose key the service does not know', () => {
  it('is refused by the service (401), and the person’s request is answered as usual', async () => {
    const sentry = await startFakeSentry();
    const t = await buildTestApp({ env: { ...ENV, SENTRY_DSN: sentry.wrongKeyDsn } });
    try {
      const user = await signUpUser(t.app, 'wrong-key');
      const answered = await t.app.inject({
        method: 'POST',
        url: '/api/v1/error-reports',
        payload: report('unheard'),
        headers: { authorization: `Bearer ${user.token}` },
      });
      expect(answered.statusCode).toBe(202);
      await t.deps.services.telemetry.flush();
      expect(sentry.refusals).toEqual([{ status: 401, reason: 'Invalid api key' }]);
      expect(sentry.events()).toEqual([]);
    } finally {
      await t.close();
      await sentry.close();
    }
  });
});
