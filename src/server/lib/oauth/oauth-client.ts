import crypto from 'node:crypto';
import * as oauth from 'oauth4webapi';
import type { Clock } from '../clock.ts';
import type { RateLimiters } from '../rate-limit.ts';
import type { SecretBox } from '../secret-box.ts';

/**
 * OAuth 2.0 for the integrations that act for a person at another service (a calendar, a chat
 * workspace): the authorization code grant with PKCE (S256), refresh before expiry and revocation,
 * over oauth4webapi. Provider-neutral: every endpoint is configuration, so tests point them at a
 * local server speaking the same protocol.
 *
 * The `state` parameter is the flow's memory: a value sealed with the installation's secret box
 * (so any web process can finish a flow another started) holding the person it was started for, the
 * PKCE verifier (which never leaves the server unsealed), an expiry and a nonce. `finish` opens it
 * only for the same signed-in person and provider, before it expires, and once (`StateReplayGuard`).
 * The browser lands on a web page with `code` and `state`, and that page posts them with the
 * person's bearer token, which binds the answer to them.
 *
 * Tokens come back in the clear: the feature that keeps them seals them (secret-box) before storing.
 */

export type OAuthProvider = Readonly<{
  /** A short stable name ('google', 'slack', 'microsoft'): part of the sealed state's context. */
  id: string;
  /** The authorization server's identifier (its issuer URL, or any stable URL when it has none). */
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  /** RFC 7009 revocation; undefined when the provider has none. */
  revocationEndpoint?: string | undefined;
  clientId: string;
  clientSecret: string;
  /** How the client authenticates at the token endpoint; most providers take either. */
  clientAuthentication?: 'client_secret_post' | 'client_secret_basic';
  scopes: readonly string[];
  /** Joins scopes in the authorization request (RFC 6749 says a space; some providers want a comma). */
  scopeSeparator?: string;
  redirectUri: string;
  /** Extra authorization request parameters, e.g. Google's access_type=offline and prompt=consent. */
  authorizationParameters?: Readonly<Record<string, string>>;
  /** Extra refresh request parameters (the Microsoft identity platform wants the scopes again). */
  refreshParameters?: Readonly<Record<string, string>>;
  /** Token types besides bearer the provider answers (Slack's bot tokens are `token_type: "bot"`). */
  tokenTypes?: readonly string[];
}>;

export type OAuthTokens = Readonly<{
  accessToken: string;
  /** Kept from before when a refresh answers none (providers that do not rotate it). */
  refreshToken: string | undefined;
  /** Undefined when the provider did not say (the token does not expire, or nobody knows when). */
  expiresAt: Date | undefined;
  scope: string | undefined;
  tokenType: string;
  /** The whole token response, for provider-specific fields (Slack's team, Microsoft's id_token). */
  raw: Readonly<Record<string, unknown>>;
}>;

/** Remembers which flows were finished, so a state opens once. */
export type StateReplayGuard = {
  /** True the first time a nonce is claimed; false after. */
  claim: (nonce: string) => Promise<boolean>;
};

export type OAuthErrorKind =
  /** The state is unknown, expired, used, or another person's: start again. */
  | 'invalid_state'
  /** The person declined at the provider (error=access_denied on the callback). */
  | 'denied'
  /** The provider answered with an OAuth error (invalid_grant: the grant was revoked or expired). */
  | 'refused'
  /** No answer in time, or no connection. */
  | 'unreachable'
  /** An answer that is not what the protocol says. */
  | 'malformed';

export class OAuthError extends Error {
  readonly kind: OAuthErrorKind;
  /** The provider's error code (invalid_grant, access_denied…) when it gave one. */
  readonly providerError: string | undefined;

  constructor(kind: OAuthErrorKind, message: string, options: { providerError?: string | undefined; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'OAuthError';
    this.kind = kind;
    this.providerError = options.providerError;
  }
}

export type OAuthClient = {
  /** The URL to send the person's browser to. */
  start: (input: { userId: string }) => { authorizationUrl: string; expiresAt: Date };
  /** Checks the callback's parameters for this person and exchanges the code for tokens. */
  finish: (input: { userId: string; callback: URLSearchParams }) => Promise<OAuthTokens>;
  /** Uses the refresh token; the answer keeps the old refresh token when the provider sends none. */
  refresh: (refreshToken: string) => Promise<OAuthTokens>;
  /** The tokens as they are when still valid for `refreshMarginMs`, else refreshed. */
  fresh: (tokens: OAuthTokens) => Promise<{ tokens: OAuthTokens; refreshed: boolean }>;
  /** Revokes a token at the provider (a refresh token revokes the whole grant at most providers); false when it has no endpoint. */
  revoke: (token: string) => Promise<boolean>;
};

export type OAuthClientOptions = {
  provider: OAuthProvider;
  box: SecretBox;
  replayGuard: StateReplayGuard;
  clock: Clock;
  /** The fetch every request goes through: the outbound guard in production, plain fetch in tests. */
  fetch?: typeof fetch;
  /** Allows http: endpoints (tests' local servers); production providers are https. */
  allowInsecureRequests?: boolean;
  timeoutMs?: number;
  /** How long a started flow may take (default 10 minutes). */
  stateTtlMs?: number;
  /** Refresh when the access token has less than this left (default 2 minutes). */
  refreshMarginMs?: number;
};

const StateVersion = 1;
type SealedState = { v: typeof StateVersion; p: string; u: string; c: string; e: number; n: string };

const stateContext = (providerId: string): string => `oauth-state:${providerId}`;

function parseState(text: string): SealedState | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const s = value as Record<string, unknown>;
  if (
    s.v !== StateVersion ||
    typeof s.p !== 'string' ||
    typeof s.u !== 'string' ||
    typeof s.c !== 'string' ||
    typeof s.e !== 'number' ||
    typeof s.n !== 'string'
  ) {
    return undefined;
  }
  return s as SealedState;
}

export function createOAuthClient(options: OAuthClientOptions): OAuthClient {
  const { provider, box, replayGuard, clock } = options;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const stateTtlMs = options.stateTtlMs ?? 10 * 60_000;
  const refreshMarginMs = options.refreshMarginMs ?? 2 * 60_000;
  const as: oauth.AuthorizationServer = {
    issuer: provider.issuer,
    authorization_endpoint: provider.authorizationEndpoint,
    token_endpoint: provider.tokenEndpoint,
    ...(provider.revocationEndpoint ? { revocation_endpoint: provider.revocationEndpoint } : {}),
  };
  const client: oauth.Client = { client_id: provider.clientId };
  const clientAuth =
    provider.clientAuthentication === 'client_secret_basic' ? oauth.ClientSecretBasic(provider.clientSecret) : oauth.ClientSecretPost(provider.clientSecret);
  const recognizedTokenTypes: oauth.RecognizedTokenTypes = Object.fromEntries((provider.tokenTypes ?? []).map((type) => [type.toLowerCase(), () => undefined]));
  const requestOptions = () => ({
    signal: AbortSignal.timeout(timeoutMs),
    ...(options.fetch ? { [oauth.customFetch]: options.fetch } : {}),
    ...(options.allowInsecureRequests ? { [oauth.allowInsecureRequests]: true } : {}),
  });

  const toTokens = (answer: oauth.TokenEndpointResponse, previousRefreshToken?: string): OAuthTokens => ({
    accessToken: answer.access_token,
    refreshToken: answer.refresh_token ?? previousRefreshToken,
    expiresAt: typeof answer.expires_in === 'number' ? new Date(clock.now().getTime() + answer.expires_in * 1000) : undefined,
    scope: answer.scope,
    tokenType: answer.token_type,
    raw: answer as Readonly<Record<string, unknown>>,
  });

  /** Runs a request to the provider, turning every failure into an OAuthError of the right kind. */
  async function call<T>(what: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw translate(what, error);
    }
  }

  function translate(what: string, error: unknown): OAuthError {
    if (error instanceof OAuthError) return error;
    if (error instanceof oauth.ResponseBodyError) {
      const description = error.error_description ? `: ${error.error_description}` : '';
      return new OAuthError('refused', `${provider.id} refused the ${what} (${error.error}${description})`, { providerError: error.error, cause: error });
    }
    if (error instanceof oauth.WWWAuthenticateChallengeError) {
      return new OAuthError('refused', `${provider.id} refused the ${what} (HTTP ${error.status})`, { cause: error });
    }
    if (error instanceof oauth.OperationProcessingError) {
      return new OAuthError('malformed', `${provider.id} answered the ${what} with something that is not OAuth 2.0 (${error.message})`, { cause: error });
    }
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      return new OAuthError('unreachable', `${provider.id} did not answer the ${what} within ${Math.round(timeoutMs / 1000)} s`, { cause: error });
    }
    if (error instanceof TypeError) {
      return new OAuthError('unreachable', `${provider.id} could not be reached for the ${what}`, { cause: error });
    }
    // Anything else (the outbound guard refusing an address, for one) keeps its own message.
    const message = error instanceof Error ? error.message : String(error);
    return new OAuthError('unreachable', `${provider.id}: the ${what} failed (${message})`, { cause: error });
  }

  async function refresh(refreshToken: string): Promise<OAuthTokens> {
    return await call('token refresh', async () => {
      const response = await oauth.refreshTokenGrantRequest(as, client, clientAuth, refreshToken, {
        ...requestOptions(),
        ...(provider.refreshParameters ? { additionalParameters: provider.refreshParameters } : {}),
      });
      return toTokens(await oauth.processRefreshTokenResponse(as, client, response, { recognizedTokenTypes }), refreshToken);
    });
  }

  return {
    start: ({ userId }) => {
      const verifier = oauth.generateRandomCodeVerifier();
      const challenge = crypto.createHash('sha256').update(verifier, 'ascii').digest('base64url');
      const expiresAt = new Date(clock.now().getTime() + stateTtlMs);
      const sealed: SealedState = {
        v: StateVersion,
        p: provider.id,
        u: userId,
        c: verifier,
        e: expiresAt.getTime(),
        n: crypto.randomBytes(16).toString('base64url'),
      };
      const url = new URL(provider.authorizationEndpoint);
      const parameters: Record<string, string> = {
        response_type: 'code',
        client_id: provider.clientId,
        redirect_uri: provider.redirectUri,
        scope: provider.scopes.join(provider.scopeSeparator ?? ' '),
        state: box.seal(JSON.stringify(sealed), stateContext(provider.id)),
        code_challenge: challenge,
        code_challenge_method: 'S256',
        ...provider.authorizationParameters,
      };
      for (const [key, value] of Object.entries(parameters)) url.searchParams.set(key, value);
      return { authorizationUrl: url.toString(), expiresAt };
    },

    finish: async ({ userId, callback }) => {
      const stateText = callback.get('state') ?? '';
      let state: SealedState | undefined;
      try {
        state = stateText ? parseState(box.open(stateText, stateContext(provider.id)).plaintext) : undefined;
      } catch {
        state = undefined;
      }
      if (!state || !stateText.startsWith('enc:') || state.p !== provider.id || state.u !== userId) {
        throw new OAuthError('invalid_state', 'This sign-in link is not valid for you: start connecting again.');
      }
      if (state.e <= clock.now().getTime()) throw new OAuthError('invalid_state', 'This sign-in took too long: start connecting again.');
      if (!(await replayGuard.claim(state.n))) {
        throw new OAuthError('invalid_state', 'This sign-in was already used: start connecting again.');
      }
      const error = callback.get('error');
      if (error) {
        if (error === 'access_denied') throw new OAuthError('denied', `Access was not granted at ${provider.id}.`, { providerError: error });
        const description = callback.get('error_description');
        throw new OAuthError('refused', `${provider.id} refused the sign-in (${error}${description ? `: ${description}` : ''})`, { providerError: error });
      }
      const code = callback.get('code');
      if (!code) throw new OAuthError('malformed', `${provider.id} sent no authorization code.`);
      // The state was checked above; oauth4webapi checks the rest (an `iss` that does not match).
      const parameters = new URLSearchParams({ code, state: stateText });
      const iss = callback.get('iss');
      if (iss) parameters.set('iss', iss);
      const verifier = state.c;
      return await call('sign-in', async () => {
        const checked = oauth.validateAuthResponse(as, client, parameters, stateText);
        const response = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, checked, provider.redirectUri, verifier, requestOptions());
        return toTokens(await oauth.processAuthorizationCodeResponse(as, client, response, { requireIdToken: false, recognizedTokenTypes }));
      });
    },

    refresh,

    fresh: async (tokens) => {
      const expiresAt = tokens.expiresAt?.getTime();
      if (expiresAt === undefined || expiresAt - clock.now().getTime() > refreshMarginMs) return { tokens, refreshed: false };
      if (!tokens.refreshToken) throw new OAuthError('refused', `The ${provider.id} access has expired and cannot be renewed: connect again.`);
      return { tokens: await refresh(tokens.refreshToken), refreshed: true };
    },

    revoke: async (token) => {
      if (!provider.revocationEndpoint) return false;
      await call('revocation', async () => {
        const response = await oauth.revocationRequest(as, client, clientAuth, token, requestOptions());
        await oauth.processRevocationResponse(response);
      });
      return true;
    },
  };
}

/**
 * Finished flows, remembered in the rate-limit port (made once in deps.ts): with REDIS_URL every web
 * process sees them, so a replayed state is refused whichever process it reaches. A nonce may be
 * claimed once within `windowSeconds`, which must outlast every state's expiry (10 minutes by
 * default). It fails closed: while a shared store cannot be reached, no flow finishes.
 */
export function createReplayGuard(rateLimiters: RateLimiters, provider: string, windowSeconds = 15 * 60): StateReplayGuard {
  const limiter = rateLimiters.limiter({ keyPrefix: `oauth-state-${provider}`, points: 1, duration: windowSeconds, failClosed: true });
  return { claim: async (nonce) => (await limiter.consume(nonce)).allowed };
}

/** What a connection keeps of its tokens: the access and refresh tokens and when the access token expires. */
type StoredTokens = { accessToken: string; refreshToken: string | null; expiresAt: string | null };

/** A connection's tokens sealed for storage (the secret box), under the context the feature binds them to. */
export function sealOAuthTokens(box: SecretBox, tokens: OAuthTokens, context: string): string {
  const stored: StoredTokens = {
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken ?? null,
    expiresAt: tokens.expiresAt?.toISOString() ?? null,
  };
  return box.seal(JSON.stringify(stored), context);
}

/** Stored tokens opened again (sealOAuthTokens' other half), as the client refreshes them. */
export function openOAuthTokens(box: SecretBox, sealed: string, context: string): OAuthTokens {
  const stored = JSON.parse(box.open(sealed, context).plaintext) as StoredTokens;
  return {
    accessToken: stored.accessToken,
    refreshToken: stored.refreshToken ?? undefined,
    expiresAt: stored.expiresAt ? new Date(stored.expiresAt) : undefined,
    scope: undefined,
    tokenType: 'Bearer',
    raw: {},
  };
}
