import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import { Agent, fetch as undiciFetch, type RequestInit as UndiciRequestInit } from 'undici';
import { AppError } from '../app-error.ts';
import { addressRefusal, METADATA_HOSTNAMES, type AddressKind } from './address-policy.ts';

/**
 * The one way Parley reaches a URL a person gave it (webhook endpoints, calendar addresses, chat
 * webhooks, OAuth providers). Every hop is checked before it is requested, and every address a name
 * resolves to is checked again as the connection opens, so a name that resolves to a public address
 * when saved and to 127.0.0.1 when used (DNS rebinding) still reaches nothing it should not.
 */

export type OutboundPolicy = Readonly<{
  /** OUTBOUND_ALLOW_PRIVATE_NETWORKS: loopback, private and link-local addresses may be reached (cloud metadata never). */
  allowPrivateNetworks: boolean;
  /** The whole exchange: every redirect hop and the body read. Default 10 s. */
  timeoutMs?: number;
  /** The most response body read; beyond it the body is cut and the request fails. Default 1 MiB. */
  maxResponseBytes?: number;
  /** Redirects followed (each hop re-checked). Default 3. */
  maxRedirects?: number;
}>;

export type OutboundFailure = 'refused' | 'timeout' | 'too_large' | 'too_many_redirects' | 'unreachable';

/** What went wrong reaching a URL, in words a person can act on; `reason` tells callers which. */
export class OutboundError extends AppError {
  readonly reason: OutboundFailure;

  constructor(reason: OutboundFailure, message: string, options: { cause?: unknown } = {}) {
    super(reason === 'refused' ? 'VALIDATION_FAILED' : 'ENGINE_UNAVAILABLE', message, options);
    this.name = 'OutboundError';
    this.reason = reason;
  }
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
const DEFAULT_MAX_REDIRECTS = 3;

const refusedAddress = (what: string, kind: AddressKind, allowPrivateNetworks: boolean) => {
  const a = kind === 'unspecified' ? 'an' : 'a';
  return new OutboundError(
    'refused',
    kind === 'cloud metadata'
      ? `${what} is a cloud metadata address, which Parley never connects to.`
      : allowPrivateNetworks || kind === 'multicast' || kind === 'broadcast' || kind === 'reserved'
        ? `${what} is ${a} ${kind} address, which Parley does not connect to.`
        : `${what} is ${a} ${kind} address. Parley does not connect to private networks unless OUTBOUND_ALLOW_PRIVATE_NETWORKS=true is set on the server.`,
  );
};

/**
 * Checks a URL before it is saved or requested: http(s) only, no user name or password in it, and no
 * address or name that the policy refuses. Names are resolved later, when a connection opens.
 * Throws an OutboundError (400, VALIDATION_FAILED) saying why; returns the parsed URL.
 */
export function checkOutboundUrl(url: string | URL, policy: Pick<OutboundPolicy, 'allowPrivateNetworks'>): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new OutboundError('refused', 'The address is not a valid URL.');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new OutboundError('refused', 'The address must start with https:// or http://.');
  if (parsed.username !== '' || parsed.password !== '')
    throw new OutboundError('refused', 'The address must not contain a user name or password; use the service’s token or secret instead.');
  // The URL parser has already turned 2130706433, 0x7f.1 and ::ffff:127.0.0.1 into their plain forms.
  const host = parsed.hostname.replace(/\.$/, '').toLowerCase();
  if (METADATA_HOSTNAMES.has(host)) throw refusedAddress(host, 'cloud metadata', policy.allowPrivateNetworks);
  const refusal = addressRefusal(host, policy.allowPrivateNetworks);
  if (refusal) throw refusedAddress(host, refusal, policy.allowPrivateNetworks);
  return parsed;
}

/**
 * Resolves a name as the socket opens and refuses it when any of its addresses is refused. Exported
 * for clients with an HTTP stack of their own (the Stripe library's agent), whose URL was checked
 * with checkOutboundUrl when it was configured.
 */
export function guardedLookup(allowPrivateNetworks: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      for (const { address } of addresses) {
        const refusal = addressRefusal(address, allowPrivateNetworks);
        if (refusal) return callback(refusedAddress(`${hostname} resolves to ${address}, which`, refusal, allowPrivateNetworks), '', 4);
      }
      if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 4);
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}

const agents = new Map<boolean, Agent>();
function agentFor(allowPrivateNetworks: boolean): Agent {
  let agent = agents.get(allowPrivateNetworks);
  if (!agent) {
    agent = new Agent({ connect: { lookup: guardedLookup(allowPrivateNetworks) }, keepAliveTimeout: 10_000 });
    agents.set(allowPrivateNetworks, agent);
  }
  return agent;
}

/** Bodies that can be sent again after a 307/308 redirect. */
type ReplayableBody = string | Uint8Array | URLSearchParams;
export type OutboundInit = Omit<RequestInit, 'body' | 'redirect'> & { body?: ReplayableBody | null };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function findOutboundError(error: unknown): OutboundError | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) if (e instanceof OutboundError) return e;
  return undefined;
}

/** Reads at most `max` bytes of a body; one more fails the request and stops the transfer. */
async function readCapped(body: ReadableStream<Uint8Array> | null, max: number, host: string): Promise<Uint8Array<ArrayBuffer>> {
  if (!body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel();
      throw new OutboundError('too_large', `${host} answered with more than ${max} bytes, more than Parley reads from it.`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/**
 * fetch for outside URLs: checks every hop with checkOutboundUrl, resolves names through the guarded
 * lookup, follows at most `maxRedirects` redirects itself (dropping Authorization and cookies when the
 * origin changes), and reads the whole body within the size cap and the time limit. Answers a
 * standard Response whose body is already in memory (any status: callers decide what a 4xx means).
 * Throws OutboundError for a refused address, a timeout, a body too large, too many redirects or a
 * connection that failed.
 */
export async function outboundFetch(url: string | URL, init: OutboundInit = {}, policy: OutboundPolicy): Promise<Response> {
  return await exchange(url, init, policy, 'buffer');
}

/**
 * outboundFetch for answers too large to hold in memory (a meeting's recording): the same checks,
 * redirects and time limit (over the whole transfer), but the body is handed over as a stream, which
 * errors with an OutboundError once it passes `maxResponseBytes` or the time limit.
 */
export async function outboundStream(url: string | URL, init: OutboundInit = {}, policy: OutboundPolicy): Promise<Response> {
  return await exchange(url, init, policy, 'stream');
}

/** Counts a body as it streams through, failing it past `max` bytes and naming a timeout as one. */
function cappedStream(body: ReadableStream<Uint8Array>, max: number, host: string, timeout: AbortSignal, timeoutMs: number): ReadableStream<Uint8Array> {
  let total = 0;
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    pull: async (controller) => {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        controller.error(
          timeout.aborted
            ? new OutboundError('timeout', `${host} did not finish its answer within ${timeoutMs / 1000} s.`, { cause: error })
            : new OutboundError('unreachable', `${host} broke off its answer.`, { cause: error }),
        );
        return;
      }
      if (chunk.done) {
        controller.close();
        return;
      }
      total += chunk.value.byteLength;
      if (total > max) {
        await reader.cancel();
        controller.error(new OutboundError('too_large', `${host} answered with more than ${max} bytes, more than Parley reads from it.`));
        return;
      }
      controller.enqueue(chunk.value);
    },
    cancel: async (reason) => {
      await reader.cancel(reason);
    },
  });
}

async function exchange(url: string | URL, init: OutboundInit, policy: OutboundPolicy, read: 'buffer' | 'stream'): Promise<Response> {
  const timeoutMs = policy.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = policy.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const maxRedirects = policy.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
  let target = checkOutboundUrl(url, policy);
  let method = (init.method ?? 'GET').toUpperCase();
  let body = init.body ?? undefined;
  const headers = new Headers(init.headers);
  if (body instanceof URLSearchParams) {
    if (!headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
    body = body.toString();
  }
  for (let hop = 0; ; hop++) {
    let response: Awaited<ReturnType<typeof undiciFetch>>;
    try {
      response = await undiciFetch(target, {
        ...(init as UndiciRequestInit),
        method,
        headers: [...headers],
        body: body ?? null,
        redirect: 'manual',
        signal,
        dispatcher: agentFor(policy.allowPrivateNetworks),
      });
    } catch (error) {
      const refused = findOutboundError(error);
      if (refused) throw refused;
      if (init.signal?.aborted) throw init.signal.reason;
      if (timeout.aborted) throw new OutboundError('timeout', `${target.host} did not answer within ${timeoutMs / 1000} s.`, { cause: error });
      throw new OutboundError('unreachable', `${target.host} could not be reached.`, { cause: error });
    }
    const location = response.headers.get('location');
    if (REDIRECTS.has(response.status) && location !== null) {
      await response.body?.cancel();
      if (hop >= maxRedirects) throw new OutboundError('too_many_redirects', `${target.host} redirected more than ${maxRedirects} times.`);
      let next: URL;
      try {
        next = new URL(location, target);
      } catch {
        throw new OutboundError('unreachable', `${target.host} redirected to an address that is not a URL.`);
      }
      next = checkOutboundUrl(next, policy);
      if (next.origin !== target.origin) {
        headers.delete('authorization');
        headers.delete('cookie');
      }
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
        method = method === 'HEAD' ? 'HEAD' : 'GET';
        body = undefined;
        headers.delete('content-type');
        headers.delete('content-length');
      }
      target = next;
      continue;
    }
    if (read === 'stream') {
      const streamed = new Response(
        response.body && response.status !== 204 && response.status !== 304
          ? cappedStream(response.body as ReadableStream<Uint8Array>, maxBytes, target.host, timeout, timeoutMs)
          : null,
        { status: response.status, statusText: response.statusText, headers: response.headers as unknown as Headers },
      );
      Object.defineProperty(streamed, 'url', { value: target.toString() });
      return streamed;
    }
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = await readCapped(response.body as ReadableStream<Uint8Array> | null, maxBytes, target.host);
    } catch (error) {
      if (error instanceof OutboundError) throw error;
      if (init.signal?.aborted) throw init.signal.reason;
      if (timeout.aborted) throw new OutboundError('timeout', `${target.host} did not finish its answer within ${timeoutMs / 1000} s.`, { cause: error });
      throw new OutboundError('unreachable', `${target.host} broke off its answer.`, { cause: error });
    }
    const answer = new Response(response.status === 204 || response.status === 304 ? null : bytes, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers as unknown as Headers,
    });
    Object.defineProperty(answer, 'url', { value: target.toString() });
    return answer;
  }
}
