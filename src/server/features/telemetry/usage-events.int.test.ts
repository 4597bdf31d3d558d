import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { startFakeOtlpCollector, type FakeOtlpCollector } from '#tests/support/fake-otlp.ts';
import { FEATURE_USED_EVENT } from './usage-events.ts';

// Settings › Privacy "Anonymized Feature Usage" (issue 34): with OTEL_EXPORTER_OTLP_ENDPOINT set, the
// features a person uses reach the operator's collector (a local OTLP/HTTP receiver) as anonymous
// events only while their switch is on: the route as written, never an id, a name or content.

const ENV = { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' };
type User = { token: string; userId: string; email: string };

describe('anonymous usage events to the operator’s OpenTelemetry collector', () => {
  let t: TestApp;
  let collector: FakeOtlpCollector;
  const inject = (user: User, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({ method, url, payload: payload as object, headers: { authorization: `Bearer ${user.token}` } });
  const features = () => collector.records.filter((r) => r.eventName === FEATURE_USED_EVENT).map((r) => r.attributes['parley.feature']);
  const flush = () => t.deps.services.telemetry.flush();

  beforeAll(async () => {
    collector = await startFakeOtlpCollector();
    t = await buildTestApp({
      env: { ...ENV, OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint, OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20collector-key' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await collector?.close();
  });

  it('switch on (the default): each feature used is one event naming the route, with no id, name or content', async () => {
    const ada = await signUpUser(t.app, 'ada', { fullName: 'Ada Lovelace' });
    const imported = await inject(ada, 'POST', '/api/v1/meetings/imports', {
      fileName: 'budget.txt',
      // A figure with a comma: a bare run of digits can turn up inside the records' nanosecond timestamps.
      content: 'Ada: The Falcon budget is 12,345 dollars.',
      title: 'Falcon budget',
    });
    expect(imported.statusCode).toBe(201);
    const { id } = imported.json() as { id: string };
    expect((await inject(ada, 'GET', `/api/v1/meetings/${id}`)).statusCode).toBe(200);
    await flush();
    expect(features()).toEqual(expect.arrayContaining(['POST /api/v1/meetings/imports', 'GET /api/v1/meetings/:id']));
    const record = collector.records.find((r) => r.attributes['parley.feature'] === 'GET /api/v1/meetings/:id')!;
    expect(record).toMatchObject({ scope: 'parley.feature-usage', attributes: { 'parley.client': 'app' }, resource: { 'service.name': 'parley' } });
    expect(collector.requests.at(-1)!.headers.authorization).toBe('Bearer collector-key');
    const raw = collector.requests.map((r) => r.raw).join('\n');
    for (const secret of [ada.userId, ada.email, 'Ada Lovelace', id, 'Falcon', '12,345']) expect(raw).not.toContain(secret);
  });

  it('switch off: nothing of theirs is sent, while another person’s uses are; a refusal is no use', async () => {
    const bo = await signUpUser(t.app, 'bo');
    const cy = await signUpUser(t.app, 'cy');
    expect((await inject(bo, 'PUT', '/api/v1/settings/privacy', { anonymizedUsage: false })).statusCode).toBe(200);
    await flush();
    const before = collector.records.length;
    // Routes only Bo calls from here on, then one only Cy calls.
    expect((await inject(bo, 'PUT', '/api/v1/settings/recording', { fillerWordRemoval: true })).statusCode).toBe(200);
    expect((await inject(bo, 'GET', '/api/v1/notifications')).statusCode).toBe(200);
    expect((await inject(cy, 'GET', '/api/v1/meetings/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await inject(cy, 'GET', '/api/v1/insights')).statusCode).toBe(200);
    await flush();
    const sent = collector.records.slice(before).map((r) => r.attributes['parley.feature']);
    expect(sent).toEqual(['GET /api/v1/insights']);

    expect((await inject(bo, 'PUT', '/api/v1/settings/privacy', { anonymizedUsage: true })).statusCode).toBe(200);
    expect((await inject(bo, 'GET', '/api/v1/notifications')).statusCode).toBe(200);
    await flush();
    expect(features()).toContain('GET /api/v1/notifications');
  });

  it('a collector that is down or stalls drops its batch and never holds up a request', async () => {
    const di = await signUpUser(t.app, 'di');
    for (const behaviour of ['unavailable', 'stall'] as const) {
      collector.behave(behaviour);
      const started = Date.now();
      expect((await inject(di, 'GET', '/api/v1/settings')).statusCode).toBe(200);
      expect(Date.now() - started).toBeLessThan(5_000);
    }
    collector.behave('ok');
  });
});

describe('without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('no event is made, whatever the switch says', async () => {
    const collector = await startFakeOtlpCollector();
    const t = await buildTestApp({ env: ENV });
    try {
      const user = await signUpUser(t.app, 'plain');
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/settings', headers: { authorization: `Bearer ${user.token}` } })).statusCode).toBe(200);
      await t.deps.services.telemetry.flush();
      expect(collector.requests).toHaveLength(0);
    } finally {
      await t.close();
      await collector.close();
    }
  });
});
