import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOutboundUrl, outboundFetch, OutboundError } from './outbound-fetch.ts';

/** A local HTTP server with the answers each case needs: real sockets, real redirects, real slowness. */
let server: http.Server;
let base: string;
let port: number;
const seen: { method: string; url: string; authorization?: string; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization, body });
      const url = new URL(req.url!, 'http://x');
      if (url.pathname === '/json') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ ok: true, method: req.method, body }));
      } else if (url.pathname === '/redirect') {
        res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: url.searchParams.get('to')! });
        res.end();
      } else if (url.pathname === '/loop') {
        res.writeHead(302, { location: '/loop' });
        res.end();
      } else if (url.pathname === '/big') {
        res.write(Buffer.alloc(64 * 1024, 'a'));
        res.end(Buffer.alloc(64 * 1024, 'b'));
      } else if (url.pathname === '/hang') {
        res.write('partial');
        // Never ends: the caller's time limit must.
      } else {
        res.statusCode = 404;
        res.end('no');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const open = { allowPrivateNetworks: true } as const;
const closed = { allowPrivateNetworks: false } as const;

async function failure(promise: Promise<unknown>): Promise<OutboundError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

describe('checkOutboundUrl', () => {
  it('accepts public http(s) URLs', () => {
    expect(checkOutboundUrl('https://hooks.example.com/x?y=1', closed).host).toBe('hooks.example.com');
  });

  it.each([
    ['ftp://example.com/', 'must start with https:// or http://'],
    ['file:///etc/passwd', 'must start with https:// or http://'],
    ['https://user:pw@example.com/', 'must not contain a user name or password'],
    ['not a url', 'not a valid URL'],
    ['http://127.0.0.1/', '127.0.0.1 is a loopback address. Parley does not connect to private networks unless OUTBOUND_ALLOW_PRIVATE_NETWORKS=true'],
    ['http://2130706433/', '127.0.0.1 is a loopback address'],
    ['http://0x7f.1/', '127.0.0.1 is a loopback address'],
    ['http://[::ffff:127.0.0.1]/', 'is a loopback address'],
    ['http://10.0.0.5/', 'is a private address'],
    ['http://100.64.1.1/', 'is a shared (carrier-grade NAT) address'],
    ['http://[fd12::1]/', 'is a unique local address'],
    ['http://169.254.169.254/latest/meta-data/', 'cloud metadata address, which Parley never connects to'],
    ['http://[fd00:ec2::254]/', 'cloud metadata address'],
    ['http://metadata.google.internal./computeMetadata/v1/', 'cloud metadata address'],
    ['http://0.0.0.0:80/', 'is an unspecified address'],
  ])('refuses %s', (url, message) => {
    const error = (() => {
      try {
        checkOutboundUrl(url, closed);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(OutboundError);
    expect((error as OutboundError).status).toBe(400);
    expect((error as OutboundError).message).toContain(message);
  });

  it('lets private addresses through with the flag, never metadata', () => {
    expect(checkOutboundUrl('http://192.168.1.20:8080/hook', open).port).toBe('8080');
    expect(() => checkOutboundUrl('http://169.254.169.254/', open)).toThrow('cloud metadata');
  });
});

describe('outboundFetch', () => {
  it('fetches JSON and text and sends bodies, with private networks allowed', async () => {
    const response = await outboundFetch(`${base}/json`, { method: 'POST', body: 'hello', headers: { 'content-type': 'text/plain' } }, open);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, method: 'POST', body: 'hello' });
    expect(response.url).toBe(`${base}/json`);
    const missing = await outboundFetch(`${base}/nothing`, {}, open);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe('no');
  });

  it('refuses a loopback address with the flag off, literal or behind a name resolved at connect time', async () => {
    const literal = await failure(outboundFetch(`${base}/json`, {}, closed));
    expect(literal.message).toContain('127.0.0.1 is a loopback address');
    const named = await failure(outboundFetch(`http://localhost:${port}/json`, {}, closed));
    expect(named.reason).toBe('refused');
    expect(named.message).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), which is a loopback address/);
    expect(seen.some((r) => r.url === '/json' && r.method === 'GET')).toBe(false);
  });

  it('follows redirects, re-checking every hop, and keeps a 307 body', async () => {
    seen.length = 0;
    const to = encodeURIComponent(`${base}/json`);
    const followed = await outboundFetch(`${base}/redirect?status=307&to=${to}`, { method: 'POST', body: 'kept' }, open);
    expect(await followed.json()).toMatchObject({ method: 'POST', body: 'kept' });
    const turned = await outboundFetch(`${base}/redirect?status=303&to=${to}`, { method: 'POST', body: 'dropped' }, open);
    expect(await turned.json()).toMatchObject({ method: 'GET', body: '' });
    const metadata = await failure(outboundFetch(`${base}/redirect?to=${encodeURIComponent('http://169.254.169.254/latest/')}`, {}, open));
    expect(metadata.message).toContain('cloud metadata');
    const scheme = await failure(outboundFetch(`${base}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`, {}, open));
    expect(scheme.message).toContain('https:// or http://');
  });

  it('drops Authorization when a redirect changes origin', async () => {
    seen.length = 0;
    const other = `http://localhost:${port}/json`;
    await outboundFetch(`${base}/redirect?to=${encodeURIComponent(other)}`, { headers: { authorization: 'Bearer s3cret' } }, open);
    expect(seen.map((r) => r.authorization)).toEqual(['Bearer s3cret', undefined]);
  });

  it('stops after 3 redirects', async () => {
    seen.length = 0;
    const error = await failure(outboundFetch(`${base}/loop`, {}, open));
    expect(error.reason).toBe('too_many_redirects');
    expect(error.message).toBe(`127.0.0.1:${port} redirected more than 3 times.`);
    expect(seen).toHaveLength(4);
  });

  it('cuts a body larger than the cap', async () => {
    const error = await failure(outboundFetch(`${base}/big`, {}, { ...open, maxResponseBytes: 100_000 }));
    expect(error.reason).toBe('too_large');
    expect(error.message).toContain('more than 100000 bytes');
    const fits = await outboundFetch(`${base}/big`, {}, { ...open, maxResponseBytes: 128 * 1024 });
    expect((await fits.arrayBuffer()).byteLength).toBe(128 * 1024);
  });

  it('gives up at the time limit, also while the body trickles', async () => {
    const started = Date.now();
    const error = await failure(outboundFetch(`${base}/hang`, {}, { ...open, timeoutMs: 300 }));
    expect(error.reason).toBe('timeout');
    expect(error.message).toContain('within 0.3 s');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('says when nothing listens', async () => {
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const freePort = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const error = await failure(outboundFetch(`http://127.0.0.1:${freePort}/`, {}, open));
    expect(error.reason).toBe('unreachable');
    expect(error.message).toBe(`127.0.0.1:${freePort} could not be reached.`);
  });
});
