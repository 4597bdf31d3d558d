import type { FastifyBaseLogger as Logger } from 'fastify';
import { LogLevel, WebClient, type WebClientOptions } from '@slack/web-api';
import type { Config } from '#server/config.ts';
import type { OutboundRequest } from '#server/lib/chat-channels/chat-channels.ts';
import type { Clock } from '#server/lib/clock.ts';
import { createOAuthClient, createReplayGuard, type OAuthClient } from '#server/lib/oauth/oauth-client.ts';
import { outboundFetch, type OutboundPolicy } from '#server/lib/outbound/outbound-fetch.ts';
import type { RateLimiters } from '#server/lib/rate-limit.ts';
import type { SecretBox } from '#server/lib/secret-box.ts';

/**
 * "Add to Slack": the Slack app's Web API through the official client (@slack/web-api), every
 * request of which goes through the outbound URL guard: the client speaks axios, and its `adapter`
 * option hands each request (API calls and the file upload to Slack's upload URL alike) to
 * `outbound` instead of axios' own http stack. The client keeps its own parts: form encoding,
 * `{ok:false,error}` answers as errors, and Retry-After on 429.
 */

/** What the app asks for: post (also to public channels it was not invited to), list channels, upload files. */
export const SLACK_BOT_SCOPES = ['chat:write', 'chat:write.public', 'channels:read', 'groups:read', 'files:write'] as const;

type AxiosLikeRequest = { url?: string; baseURL?: string; method?: string; headers?: { toJSON: () => Record<string, unknown> }; data?: unknown };

type Multipart = { getBuffer: () => Buffer; getHeaders: () => Record<string, string> };
const isMultipart = (data: unknown): data is Multipart =>
  typeof data === 'object' && data !== null && typeof (data as Multipart).getBuffer === 'function' && typeof (data as Multipart).getHeaders === 'function';

function guardedAdapter(outbound: OutboundRequest) {
  return async (config: AxiosLikeRequest) => {
    const target = config.url ?? '';
    const url = /^https?:\/\//.test(target) ? target : new URL(target, config.baseURL).toString();
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(config.headers?.toJSON() ?? {})) if (value !== undefined && value !== null) headers[name] = String(value);
    let body: string | Uint8Array | undefined;
    const data = config.data as unknown;
    if (typeof data === 'string' || data instanceof Uint8Array) body = data;
    else if (isMultipart(data)) {
      // A file upload: the client builds a multipart form (the form-data package) of in-memory parts.
      body = data.getBuffer();
      Object.assign(headers, data.getHeaders());
    } else if (data !== undefined) throw new Error('this request body cannot be sent through the outbound guard');
    const response = await outbound(url, { method: config.method?.toUpperCase() === 'GET' ? 'GET' : 'POST', headers, ...(body === undefined ? {} : { body }) });
    const text = await response.text();
    // axios parses the JSON (its response transform runs after the adapter).
    return { data: text, status: response.status, statusText: '', headers: Object.fromEntries(response.headers), config, request: {} };
  };
}

/** The client's log lines go to the server's log at debug level (it redacts tokens itself). */
function clientLogger(log: Logger): NonNullable<WebClientOptions['logger']> {
  return {
    debug: (...m: unknown[]) => log.debug({ slack: m.map(String).join(' ') }),
    info: (...m: unknown[]) => log.debug({ slack: m.map(String).join(' ') }),
    warn: (...m: unknown[]) => log.debug({ slack: m.map(String).join(' ') }),
    error: (...m: unknown[]) => log.warn({ slack: m.map(String).join(' ') }),
    setLevel: () => undefined,
    getLevel: () => LogLevel.DEBUG,
    setName: () => undefined,
  };
}

export type SlackClients = (token?: string) => WebClient;

export function createSlackClients(options: { apiUrl: string; outbound: OutboundRequest; log: Logger }): SlackClients {
  const adapter = guardedAdapter(options.outbound) as unknown as WebClientOptions['adapter'];
  return (token) =>
    new WebClient(token, {
      slackApiUrl: options.apiUrl,
      adapter,
      logger: clientLogger(options.log),
      // Rate limits are handled by the caller (a short Retry-After is waited once; a long one is a failure the event delivery retries).
      rejectRateLimitedCalls: true,
      retryConfig: { retries: 0 },
    });
}

type SlackError = { code?: unknown; data?: { error?: unknown }; retryAfter?: unknown; statusCode?: unknown; message?: unknown };

/** Seconds Slack asked to wait (a 429's Retry-After), when the error is a rate limit. */
export function retryAfterOf(error: unknown): number | undefined {
  const e = error as SlackError;
  return e?.code === 'slack_webapi_rate_limited_error' && typeof e.retryAfter === 'number' ? e.retryAfter : undefined;
}

/** What a Web API failure means for the person, and what to do about it. */
export function slackApiProblem(error: unknown): string {
  const e = error as SlackError;
  const retryAfter = retryAfterOf(error);
  if (retryAfter !== undefined) return `Slack is limiting Parley's posts (try again in ${retryAfter} s). It will be tried again.`;
  if (e?.code === 'slack_webapi_platform_error') {
    const reason = typeof e.data?.error === 'string' ? e.data.error.slice(0, 80) : 'unknown_error';
    // Slack's error codes are snake_case words; anything else is an answer from something in between (a proxy's HTML page).
    if (!/^[a-z0-9_.]+$/.test(reason)) return `Slack answered something that is not its Web API (${reason.slice(0, 60)}). It will be tried again.`;
    switch (reason) {
      case 'not_in_channel':
        return 'The Parley app is not in that Slack channel (not_in_channel). Invite it there (/invite @Parley), or pick another channel.';
      case 'channel_not_found':
      case 'is_archived':
        return `That Slack channel cannot be posted to (${reason}). Pick another channel in Settings.`;
      case 'invalid_auth':
      case 'not_authed':
      case 'token_revoked':
      case 'token_expired':
      case 'account_inactive':
      case 'missing_scope':
        return `Slack no longer accepts Parley's access (${reason}). Disconnect and Add to Slack again.`;
      default:
        return `Slack refused the request (${reason}).`;
    }
  }
  if (e?.code === 'slack_webapi_http_error') return `Slack answered HTTP ${String(e.statusCode)}. It will be tried again.`;
  const message = typeof e?.message === 'string' ? e.message : String(error);
  return `Slack could not be reached or answered something that is not its Web API (${message.slice(0, 200)}).`;
}

/**
 * The Slack app when the operator registered one (SLACK_CLIENT_ID/SECRET): its Web API clients and
 * its OAuth v2 sign-in (PKCE, bot token), both through the outbound guard; undefined without one.
 */
export function createSlackApp(options: {
  config: Config['slack'];
  redirectUri: string;
  outboundPolicy: OutboundPolicy;
  secrets: SecretBox;
  /** Where finished sign-ins are remembered, so a replayed one is refused by every web process. */
  rateLimiters: RateLimiters;
  clock: Clock;
  log: Logger;
}): { clients: SlackClients; oauth: OAuthClient } | undefined {
  const { config, outboundPolicy } = options;
  if (!config.app) return undefined;
  const outbound: OutboundRequest = (url, init) => outboundFetch(url, init, outboundPolicy);
  return {
    clients: createSlackClients({ apiUrl: config.apiUrl, outbound, log: options.log }),
    oauth: createOAuthClient({
      provider: {
        id: 'slack',
        issuer: 'https://slack.com',
        authorizationEndpoint: config.authorizeUrl,
        tokenEndpoint: `${config.apiUrl}oauth.v2.access`,
        clientId: config.app.clientId,
        clientSecret: config.app.clientSecret,
        scopes: SLACK_BOT_SCOPES,
        scopeSeparator: ',',
        redirectUri: options.redirectUri,
        tokenTypes: ['bot'],
      },
      box: options.secrets,
      replayGuard: createReplayGuard(options.rateLimiters, 'slack'),
      clock: options.clock,
      fetch: ((input: string | URL | Request, init?: RequestInit) =>
        outboundFetch(input instanceof Request ? input.url : input, init as Parameters<typeof outboundFetch>[1], outboundPolicy)) as typeof fetch,
      // Plain http only where the operator allows private networks (a local Slack-compatible service, tests).
      allowInsecureRequests: outboundPolicy.allowPrivateNetworks,
    }),
  };
}
