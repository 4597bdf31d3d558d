import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';

/**
 * A local stand-in for a Sentry-compatible ingestion endpoint (Sentry, GlitchTip): POST
 * /api/<project id>/envelope/ with the DSN's public key (X-Sentry-Auth or the sentry_key query
 * parameter, as the SDKs send it), a body in Sentry's envelope format (a header line, then items
 * each with a header line, `length` when given, and a payload), gzip or deflate when so encoded.
 * It keeps the events it accepted, and answers as told: a 429 with X-Sentry-Rate-Limits, a 500, or
 * nothing at all. A wrong key is 401, a wrong project 403, a broken envelope 400, as Sentry answers.
 */
export type SentryEnvelopeItem = { type: string; payload: unknown };
export type ReceivedEnvelope = { header: Record<string, unknown>; items: SentryEnvelopeItem[] };
export type SentryEvent = {
  event_id?: string;
  platform?: string;
  level?: string;
  transaction?: string;
  environment?: string;
  release?: string;
  user?: unknown;
  server_name?: string;
  request?: unknown;
  tags?: Record<string, string>;
  extra?: Record<string, unknown>;
  exception?: { values?: { type?: string; value?: string; stacktrace?: { frames?: { filename?: string; function?: string }[] } }[] };
};
type Behaviour = 'ok' | 'rate-limited' | 'server-error' | 'stall';

export async function startFakeSentry(options: { projectId?: string } = {}) {
  const publicKey = crypto.randomBytes(16).toString('hex');
  const projectId = options.projectId ?? '42';
  const envelopes: ReceivedEnvelope[] = [];
  const refusals: { status: number; reason: string }[] = [];
  let behaviour: Behaviour = 'ok';
  let requests = 0;

  const refuse = (res: http.ServerResponse, status: number, reason: string) => {
    refusals.push({ status, reason });
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: reason }));
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests++;
      const url = new URL(req.url ?? '/', 'http://localhost');
      const match = /^\/api\/([^/]+)\/envelope\/?$/.exec(url.pathname);
      if (req.method !== 'POST' || !match) return refuse(res, 404, 'not found');
      if (keyOf(req, url) !== publicKey) return refuse(res, 401, 'Invalid api key');
      if (match[1] !== projectId) return refuse(res, 403, 'Invalid project');
      if (behaviour === 'stall') return; // never answers
      if (behaviour === 'server-error') return refuse(res, 500, 'internal error');
      if (behaviour === 'rate-limited') {
        refusals.push({ status: 429, reason: 'rate limited' });
        res.writeHead(429, { 'x-sentry-rate-limits': '60:error:organization', 'retry-after': '60' }).end();
        return;
      }
      let envelope: ReceivedEnvelope;
      try {
        envelope = parseEnvelope(decode(Buffer.concat(chunks), req.headers['content-encoding']));
      } catch (error) {
        return refuse(res, 400, `invalid envelope: ${(error as Error).message}`);
      }
      envelopes.push(envelope);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: envelope.header.event_id ?? null }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    dsn: `http://${publicKey}@127.0.0.1:${port}/${projectId}`,
    /** The same server under a key it does not know. */
    wrongKeyDsn: `http://${'0'.repeat(32)}@127.0.0.1:${port}/${projectId}`,
    envelopes,
    refusals,
    /** The events of every accepted envelope, in order. */
    events: (): SentryEvent[] => envelopes.flatMap((e) => e.items.filter((i) => i.type === 'event').map((i) => i.payload as SentryEvent)),
    requests: () => requests,
    behave(next: Behaviour) {
      behaviour = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type FakeSentry = Awaited<ReturnType<typeof startFakeSentry>>;

/** The public key from `X-Sentry-Auth: Sentry sentry_key=…, sentry_version=7`, or from the query. */
function keyOf(req: http.IncomingMessage, url: URL): string | undefined {
  const header = req.headers['x-sentry-auth'];
  const fromHeader = typeof header === 'string' ? /sentry_key=([^,\s]+)/.exec(header)?.[1] : undefined;
  return fromHeader ?? url.searchParams.get('sentry_key') ?? undefined;
}

function decode(body: Buffer, encoding: string | undefined): Buffer {
  if (encoding === 'gzip') return zlib.gunzipSync(body);
  if (encoding === 'deflate') return zlib.inflateSync(body);
  if (encoding === 'br') return zlib.brotliDecompressSync(body);
  return body;
}

/** Sentry's envelope: newline-separated JSON headers; an item's payload is `length` bytes when given, else up to the next newline. */
function parseEnvelope(body: Buffer): ReceivedEnvelope {
  let at = 0;
  const line = (): Buffer => {
    const end = body.indexOf(0x0a, at);
    const slice = body.subarray(at, end === -1 ? body.length : end);
    at = end === -1 ? body.length : end + 1;
    return slice;
  };
  const header = JSON.parse(line().toString('utf8')) as Record<string, unknown>;
  if (typeof header !== 'object' || header === null) throw new Error('the envelope header is not an object');
  const items: SentryEnvelopeItem[] = [];
  while (at < body.length) {
    const headerLine = line();
    if (headerLine.length === 0) continue;
    const itemHeader = JSON.parse(headerLine.toString('utf8')) as { type?: unknown; length?: unknown };
    if (typeof itemHeader.type !== 'string') throw new Error('an item has no type');
    let payload: Buffer;
    if (typeof itemHeader.length === 'number') {
      payload = body.subarray(at, at + itemHeader.length);
      if (payload.length !== itemHeader.length) throw new Error('an item is shorter than its length');
      at += itemHeader.length;
      if (body[at] === 0x0a) at++;
    } else {
      payload = line();
    }
    const text = payload.toString('utf8');
    items.push({ type: itemHeader.type, payload: text.startsWith('{') ? (JSON.parse(text) as unknown) : text });
  }
  return { header, items };
}
