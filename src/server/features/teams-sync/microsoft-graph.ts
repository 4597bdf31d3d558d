import { setTimeout as sleep } from 'node:timers/promises';
import { OutboundError } from '#server/lib/outbound/outbound-fetch.ts';

/**
 * The Microsoft Graph calls the Teams sync makes, as Graph documents them: JSON collections in
 * `value` followed page by page through `@odata.nextLink` (only on Graph's own origin: the bearer
 * token goes nowhere else), errors as `{"error":{"code","message"}}`, and throttling (429, or 503
 * with Retry-After) waited out when the wait is short.
 */

export type GraphFailure =
  /** 401: the token is not accepted (revoked, or the account was disabled). */
  | 'unauthorized'
  /** 403: a permission is missing or the organisation's policy refuses. */
  | 'forbidden'
  | 'not_found'
  /** 429 (or 503 with Retry-After): `retryAfterMs` says how long to wait. */
  | 'throttled'
  /** 5xx, or another status Graph should not answer. */
  | 'server'
  | 'timeout'
  | 'unreachable'
  /** More than Parley reads of one answer (a transcript larger than an import may be). */
  | 'too_large'
  /** Not the JSON Graph documents. */
  | 'malformed';

export class GraphError extends Error {
  readonly failure: GraphFailure;
  readonly status: number | undefined;
  /** Graph's error code (ErrorAccessDenied, InvalidAuthenticationToken…), when it gave one. */
  readonly code: string | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(failure: GraphFailure, message: string, details: { status?: number; code?: string; retryAfterMs?: number; cause?: unknown } = {}) {
    super(message, { cause: details.cause });
    this.name = 'GraphError';
    this.failure = failure;
    this.status = details.status;
    this.code = details.code;
    this.retryAfterMs = details.retryAfterMs;
  }
}

export type GraphFetch = (url: string, init: { headers: Record<string, string>; signal?: AbortSignal; maxBytes?: number }) => Promise<Response>;

export type GraphClientOptions = {
  /** Graph's base URL with its version, e.g. https://graph.microsoft.com/v1.0 (national clouds have others). */
  baseUrl: string;
  fetch: GraphFetch;
  /** For content too large to hold in memory (a recording): the answer's body is a stream. */
  streamFetch?: GraphFetch;
  timeoutSeconds: number;
  /** The longest Retry-After waited in place; a longer one ends the run (the next sync comes after it). */
  maxRetryWaitMs?: number;
  /** Tries of one request that Graph throttles. */
  maxThrottledTries?: number;
  /** The most pages followed for one collection. */
  maxPages?: number;
};

const trimmed = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Retry-After in seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export type GraphClient = {
  /** One JSON resource. */
  get: (accessToken: string, path: string, signal?: AbortSignal) => Promise<Record<string, unknown>>;
  /** Every item of a collection, page by page (at most `maxPages` pages). */
  list: (accessToken: string, path: string, signal?: AbortSignal, headers?: Record<string, string>) => Promise<Record<string, unknown>[]>;
  /** A text resource (a transcript's WebVTT). */
  text: (accessToken: string, path: string, accept: string, signal?: AbortSignal) => Promise<string>;
  /** A binary resource (a recording), its body streamed. */
  stream: (accessToken: string, path: string, maxBytes: number, signal?: AbortSignal) => Promise<Response>;
};

export function createGraphClient(options: GraphClientOptions): GraphClient {
  const base = options.baseUrl.replace(/\/+$/, '');
  const origin = new URL(base).origin;
  const maxRetryWaitMs = options.maxRetryWaitMs ?? 30_000;
  const maxThrottledTries = options.maxThrottledTries ?? 3;
  const maxPages = options.maxPages ?? 50;

  const request = async (
    accessToken: string,
    url: string,
    accept: string,
    signal: AbortSignal | undefined,
    headers: Record<string, string> = {},
    fetcher: GraphFetch = options.fetch,
    maxBytes?: number,
  ) => {
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await fetcher(url, {
          headers: { authorization: `Bearer ${accessToken}`, accept, ...headers },
          ...(signal ? { signal } : {}),
          ...(maxBytes ? { maxBytes } : {}),
        });
      } catch (error) {
        if (signal?.aborted) throw error;
        if (error instanceof OutboundError && error.reason === 'timeout') {
          throw new GraphError('timeout', `Microsoft Graph did not answer within ${options.timeoutSeconds} s.`, { cause: error });
        }
        if (error instanceof OutboundError && error.reason === 'too_large') {
          throw new GraphError('too_large', 'Microsoft Graph answered with more than Parley reads at once.', { cause: error });
        }
        const why = error instanceof OutboundError && error.reason === 'refused' ? ` (${error.message})` : '';
        throw new GraphError('unreachable', `Microsoft Graph could not be reached${why}.`, { cause: error });
      }
      if (response.ok) return response;
      const body = await response.text().catch(() => '');
      let code: string | undefined;
      let said = '';
      try {
        const parsed = JSON.parse(body) as { error?: { code?: unknown; message?: unknown } };
        if (typeof parsed.error?.code === 'string') code = trimmed(parsed.error.code, 80);
        if (typeof parsed.error?.message === 'string' && parsed.error.message.trim()) said = `: ${trimmed(parsed.error.message.trim())}`;
      } catch {
        // Not Graph's error JSON: the status alone says it.
      }
      const status = response.status;
      const label = `HTTP ${status}${code ? ` ${code}` : ''}${said}`;
      const wait = retryAfterMs(response.headers.get('retry-after'));
      if (status === 429 || (status === 503 && wait !== undefined)) {
        const waitMs = wait ?? 60_000;
        if (attempt < maxThrottledTries && waitMs <= maxRetryWaitMs) {
          await sleep(waitMs, undefined, signal ? { signal } : undefined);
          continue;
        }
        throw new GraphError('throttled', `Microsoft Graph is limiting Parley’s requests (${label}).`, {
          status,
          ...(code ? { code } : {}),
          retryAfterMs: waitMs,
        });
      }
      const details = { status, ...(code ? { code } : {}) };
      if (status === 401) throw new GraphError('unauthorized', `Microsoft refused Parley’s access token (${label}).`, details);
      if (status === 403) throw new GraphError('forbidden', `Microsoft refused access (${label}).`, details);
      if (status === 404) throw new GraphError('not_found', `Microsoft Graph found nothing there (${label}).`, details);
      throw new GraphError('server', `Microsoft Graph answered with an error (${label}).`, details);
    }
  };

  const json = async (response: Response): Promise<Record<string, unknown>> => {
    let value: unknown;
    try {
      value = await response.json();
    } catch (error) {
      throw new GraphError('malformed', 'Microsoft Graph answered with something that is not JSON.', { cause: error });
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new GraphError('malformed', 'Microsoft Graph answered with an unexpected JSON value.');
    return value as Record<string, unknown>;
  };

  return {
    get: async (accessToken, path, signal) => json(await request(accessToken, `${base}${path}`, 'application/json', signal)),

    list: async (accessToken, path, signal, headers) => {
      const items: Record<string, unknown>[] = [];
      let url: string | undefined = `${base}${path}`;
      for (let page = 0; url !== undefined; page++) {
        if (page >= maxPages) break;
        const body = await json(await request(accessToken, url, 'application/json', signal, headers));
        if (!Array.isArray(body.value)) throw new GraphError('malformed', 'Microsoft Graph answered a list without its `value`.');
        for (const item of body.value as unknown[])
          if (typeof item === 'object' && item !== null && !Array.isArray(item)) items.push(item as Record<string, unknown>);
        const next = body['@odata.nextLink'];
        if (next === undefined || next === null) break;
        if (typeof next !== 'string') throw new GraphError('malformed', 'Microsoft Graph answered a page link that is not a URL.');
        let nextUrl: URL;
        try {
          nextUrl = new URL(next);
        } catch {
          throw new GraphError('malformed', 'Microsoft Graph answered a page link that is not a URL.');
        }
        // The access token is sent only to Graph itself.
        if (nextUrl.origin !== origin) throw new GraphError('malformed', `Microsoft Graph’s next page is on another host (${nextUrl.host}).`);
        url = nextUrl.toString();
      }
      return items;
    },

    text: async (accessToken, path, accept, signal) => {
      const response = await request(accessToken, `${base}${path}`, accept, signal);
      return await response.text();
    },

    stream: async (accessToken, path, maxBytes, signal) =>
      request(accessToken, `${base}${path}`, '*/*', signal, {}, options.streamFetch ?? options.fetch, maxBytes),
  };
}
