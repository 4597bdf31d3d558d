import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';

/**
 * A receiver that speaks HTTP as a webhook consumer would: it records what arrives, with headers,
 * and answers each path's scripted statuses in turn (then 200).
 */
type Received = { path: string; headers: http.IncomingHttpHeaders; body: string };
let receiver: http.Server;
let receiverUrl: string;
const received: Received[] = [];
const scripts = new Map<string, number[]>();

let t: TestApp;
beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ path: req.url!, headers: req.headers, body });
      const script = scripts.get(req.url!) ?? [];
      res.statusCode = script.shift() ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  t = await buildTestApp({
    env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false', OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' },
    deps: { webhookTimings: { retryScheduleMs: [20, 20], sweepMs: 25, disableAfterMs: 0 } },
  });
});
afterAll(async () => {
  await t.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = async (bearer: string, method: Method, url: string, payload?: object) => {
  const response = await t.app.inject({ method, url, headers: { authorization: `Bearer ${bearer}` }, ...(payload ? { payload } : {}) });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of several shapes, each asserted field by field
  return { status: response.statusCode, body: response.json() as Record<string, any> };
};

const addEndpoint = async (session: string, path: string, events: string[]) => {
  const created = await call(session, 'POST', '/api/v1/webhooks', { url: `${receiverUrl}${path}`, events });
  expect(created.status).toBe(201);
  expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  return created.body as { id: string; secret: string };
};

const at = (path: string) => received.filter((r) => r.path === path);
const verify = (secret: string, r: Received) =>
  new Webhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  });

describe('outgoing webhooks', () => {
  it('deliver notes.ready of an imported transcript, signed so standardwebhooks verifies it', async () => {
    const { token } = await signUpUser(t.app, 'hooks');
    const { id, secret } = await addEndpoint(token, '/notes', ['notes.ready', 'transcript.ready']);
    const imported = await call(token, 'POST', '/api/v1/meetings/imports', {
      fileName: 'Planning.txt',
      content: 'Alice: We decided to ship on Friday.\nBob: I will write the release notes by Thursday.',
    });
    expect(imported.status).toBe(201);
    const meetingId = imported.body.id as string;
    await expect
      .poll(() => at('/notes').map((r) => JSON.parse(r.body).type as string), { timeout: 45_000 })
      .toEqual(expect.arrayContaining(['transcript.ready', 'notes.ready']));
    const notes = at('/notes').find((r) => JSON.parse(r.body).type === 'notes.ready')!;
    const verified = verify(secret, notes) as { type: string; timestamp: string; data: Record<string, unknown> };
    expect(verified).toMatchObject({ type: 'notes.ready', data: { meetingId, url: `${t.config.publicUrl}/meetings/${meetingId}` } });
    expect(Date.parse(verified.timestamp)).not.toBeNaN();
    expect(() => verify(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, notes)).toThrow();

    // The log says so once the answer is recorded (a moment after the receiver has it).
    const delivered = async () =>
      (await call(token, 'GET', `/api/v1/webhooks/${id}/deliveries`)).body.deliveries.find((d: { eventType: string }) => d.eventType === 'notes.ready');
    await expect.poll(delivered).toMatchObject({ id: notes.headers['webhook-id'], status: 'succeeded', attempts: 1, responseCode: 200, error: null });
    // Another person cannot see the endpoint or its log.
    const { token: other } = await signUpUser(t.app, 'hooks');
    expect((await call(other, 'GET', `/api/v1/webhooks/${id}/deliveries`)).status).toBe(404);
    expect((await call(other, 'GET', '/api/v1/webhooks')).body.endpoints).toEqual([]);
  });

  it('retry a failing endpoint, list each attempt, and disable it when it never recovers; redeliver after', async () => {
    const { token } = await signUpUser(t.app, 'hooks');
    scripts.set('/flaky', [500, 503]);
    const flaky = await addEndpoint(token, '/flaky', ['meeting.created']);
    expect((await call(token, 'POST', `/api/v1/webhooks/${flaky.id}/test`)).status).toBe(202);
    await expect
      .poll(async () => (await call(token, 'GET', `/api/v1/webhooks/${flaky.id}/deliveries`)).body.deliveries[0], { timeout: 45_000 })
      .toMatchObject({ eventType: 'webhook.test', status: 'succeeded', attempts: 3, responseCode: 200 });
    expect(at('/flaky')).toHaveLength(3);
    expect(new Set(at('/flaky').map((r) => r.headers['webhook-id'])).size).toBe(1);

    scripts.set('/down', [500, 500, 500]);
    const down = await addEndpoint(token, '/down', ['meeting.created']);
    await call(token, 'POST', `/api/v1/webhooks/${down.id}/test`);
    await expect
      .poll(async () => (await call(token, 'GET', `/api/v1/webhooks/${down.id}/deliveries`)).body.deliveries[0], { timeout: 45_000 })
      .toMatchObject({ status: 'failed', attempts: 3, responseCode: 500, error: 'The endpoint answered HTTP 500.', nextAttemptAt: null });
    await expect
      .poll(async () => (await call(token, 'GET', '/api/v1/webhooks')).body.endpoints.find((e: { id: string }) => e.id === down.id))
      .toMatchObject({ enabled: false, disabledReason: 'Every delivery to it has failed for 3 days.' });
    const bell = await call(token, 'GET', '/api/v1/notifications');
    expect(JSON.stringify(bell.body)).toContain('Webhook endpoint disabled');
    const deliveryId = (await call(token, 'GET', `/api/v1/webhooks/${down.id}/deliveries`)).body.deliveries[0].id as string;
    expect((await call(token, 'POST', `/api/v1/webhooks/${down.id}/deliveries/${deliveryId}/redeliver`)).status).toBe(409);

    expect((await call(token, 'PATCH', `/api/v1/webhooks/${down.id}`, { enabled: true })).body.enabled).toBe(true);
    expect((await call(token, 'POST', `/api/v1/webhooks/${down.id}/deliveries/${deliveryId}/redeliver`)).status).toBe(202);
    await expect
      .poll(async () => (await call(token, 'GET', `/api/v1/webhooks/${down.id}/deliveries`)).body.deliveries[0], { timeout: 45_000 })
      .toMatchObject({ id: deliveryId, status: 'succeeded', attempts: 1, responseCode: 200 });
  });

  it('sign with both secrets while a rotation overlaps', async () => {
    const { token } = await signUpUser(t.app, 'hooks');
    const { id, secret } = await addEndpoint(token, '/rotated', ['meeting.created']);
    const rotated = await call(token, 'POST', `/api/v1/webhooks/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    await call(token, 'POST', `/api/v1/webhooks/${id}/test`);
    await expect.poll(() => at('/rotated').length, { timeout: 45_000 }).toBe(1);
    await t.deps.jobs.idle();
    const [delivery] = at('/rotated');
    expect(String(delivery!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(secret, delivery!)).toMatchObject({ type: 'webhook.test' });
    expect(verify(rotated.body.secret as string, delivery!)).toMatchObject({ type: 'webhook.test' });
  });

  it('refuse addresses the outbound guard refuses, and team endpoints from non-members', async () => {
    const { token } = await signUpUser(t.app, 'hooks');
    const metadata = await call(token, 'POST', '/api/v1/webhooks', { url: 'http://169.254.169.254/latest', events: ['notes.ready'] });
    expect(metadata.status).toBe(400);
    expect(metadata.body.error.message).toBe('169.254.169.254 is a cloud metadata address, which Parley never connects to.');
    expect((await call(token, 'POST', '/api/v1/webhooks', { url: 'ftp://example.com', events: ['notes.ready'] })).body.error.message).toBe(
      'The address must start with https:// or http://.',
    );
    const team = await call(token, 'POST', '/api/v1/teams', { name: 'Hooks team' });
    const teamId = team.body.id as string;
    const teamHook = await call(token, 'POST', '/api/v1/webhooks', { url: `${receiverUrl}/team`, events: ['notes.ready'], teamId });
    expect(teamHook.status).toBe(201);
    expect((await call(token, 'GET', '/api/v1/webhooks')).body.endpoints).toMatchObject([{ id: teamHook.body.id, teamId }]);
    const { token: stranger } = await signUpUser(t.app, 'hooks');
    expect((await call(stranger, 'POST', '/api/v1/webhooks', { url: `${receiverUrl}/team`, events: ['notes.ready'], teamId })).status).toBe(404);
  });
});
