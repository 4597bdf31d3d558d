import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboundFetch } from '#server/lib/outbound/outbound-fetch.ts';
import { createGraphClient, GraphError, retryAfterMs } from './microsoft-graph.ts';

/** The Graph client's paging and throttling rules, against a local server answering as Graph does. */

const seen: { url: string; authorization: string | undefined }[] = [];
let answers: ((response: http.ServerResponse) => void)[] = [];
const server = http.createServer((request, response) => {
  seen.push({ url: request.url ?? '', authorization: request.headers.authorization });
  const answer = answers.shift();
  if (answer) answer(response);
  else response.writeHead(404).end();
});
let base = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const graph = () =>
  createGraphClient({
    baseUrl: `${base}/v1.0`,
    fetch: (url, init) => outboundFetch(url, init, { allowPrivateNetworks: true, timeoutMs: 5_000 }),
    timeoutSeconds: 5,
  });
const json =
  (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  (response: http.ServerResponse) =>
    response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

describe('the Graph client', () => {
  it('follows @odata.nextLink on Graph’s host, and never sends the token to another', async () => {
    seen.length = 0;
    answers = [json({ value: [{ id: 'a' }], '@odata.nextLink': `${base}/v1.0/me/events?$skiptoken=1` }), json({ value: [{ id: 'b' }] })];
    expect((await graph().list('token-1', '/me/events')).map((e) => e.id)).toEqual(['a', 'b']);
    expect(seen.map((s) => [s.url, s.authorization])).toEqual([
      ['/v1.0/me/events', 'Bearer token-1'],
      ['/v1.0/me/events?$skiptoken=1', 'Bearer token-1'],
    ]);

    seen.length = 0;
    answers = [json({ value: [], '@odata.nextLink': 'https://collector.example/steal?$skiptoken=1' })];
    const refused = await graph()
      .list('token-1', '/me/events')
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(GraphError);
    expect((refused as GraphError).message).toBe('Microsoft Graph’s next page is on another host (collector.example).');
    expect(seen).toHaveLength(1);
  });

  it('waits out a short Retry-After (429 or 503) and tries again; a long one is the caller’s to wait', async () => {
    answers = [json({ error: { code: 'TooManyRequests', message: 'Slow down.' } }, 429, { 'retry-after': '1' }), json({ value: [{ id: 'c' }] })];
    const started = Date.now();
    expect((await graph().list('t', '/me/events')).map((e) => e.id)).toEqual(['c']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);

    answers = [json({ error: { code: 'ServiceUnavailable', message: 'Later.' } }, 503, { 'retry-after': '3600' })];
    const throttled = (await graph()
      .get('t', '/me/calendar')
      .catch((error: unknown) => error)) as GraphError;
    expect([throttled.failure, throttled.retryAfterMs]).toEqual(['throttled', 3_600_000]);
  });

  it('reads Retry-After in seconds or as a date', () => {
    const now = Date.parse('2026-12-07T10:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Mon, 07 Dec 2026 10:05:00 GMT', now)).toBe(300_000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});
