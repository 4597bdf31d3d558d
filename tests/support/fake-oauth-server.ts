import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local OAuth 2.0 authorization server as RFC 6749, 7636 (PKCE) and 7009 (revocation) describe it
 * and Google, Microsoft and Slack implement it: `/authorize` approves at once (the person said yes)
 * and redirects back with a code; `/token` checks client authentication, the code, its redirect URI
 * and the PKCE verifier, and answers JSON tokens; `/revoke` forgets a token. Other paths go to
 * `extra`, so a provider's API can be served beside it.
 */
export type FakeOAuthBehaviour =
  | 'ok'
  /** `{"error":"invalid_grant"}` with 400, as when a grant was revoked. */
  | 'invalid_grant'
  /** An HTML page with 200, as a captive portal or a misconfigured proxy answers. */
  | 'malformed'
  /** Never answers. */
  | 'stall';

export type FakeOAuthServer = {
  url: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  revocationEndpoint: string;
  /** What the next token requests meet. */
  behave: (behaviour: FakeOAuthBehaviour) => void;
  /** Seconds each issued access token lives. */
  setExpiresIn: (seconds: number) => void;
  /** Whether /authorize answers access_denied (the person said no). */
  setDeny: (deny: boolean) => void;
  /** Every token request's form and how the client authenticated. */
  tokenRequests: { form: Record<string, string>; clientAuth: 'post' | 'basic' | 'none' }[];
  revoked: string[];
  /** Whether an access token is one this server issued and has not revoked. */
  isValidAccessToken: (token: string) => boolean;
  close: () => Promise<void>;
};

type Grant = { clientId: string; redirectUri: string; challenge: string; scope: string };

export async function startFakeOAuthServer(options: {
  clientId: string;
  clientSecret: string;
  /** Other routes (a provider's API); return true when handled. */
  extra?: (request: http.IncomingMessage, response: http.ServerResponse, url: URL) => boolean | Promise<boolean>;
  /** Where the endpoints are (Microsoft's are under `/<tenant>/oauth2/v2.0/`); `/authorize`, `/token`, `/revoke` by default. */
  paths?: { authorize?: string; token?: string; revoke?: string };
  /** Refuses a refresh that does not name its scopes again (as the Microsoft identity platform documents it). */
  refreshNeedsScope?: boolean;
  /** Answers a new refresh token with each refresh (Microsoft rotates them; Google does not). */
  rotateRefreshTokens?: boolean;
}): Promise<FakeOAuthServer> {
  const paths = { authorize: '/authorize', token: '/token', revoke: '/revoke', ...options.paths };
  const codes = new Map<string, Grant>();
  const refreshTokens = new Map<string, string>(); // refresh token → scope
  const accessTokens = new Set<string>();
  const stalled: http.ServerResponse[] = [];
  let behaviour: FakeOAuthBehaviour = 'ok';
  let expiresIn = 3600;
  let deny = false;
  const tokenRequests: FakeOAuthServer['tokenRequests'] = [];
  const revoked: string[] = [];

  const json = (response: http.ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    response.end(JSON.stringify(body));
  };
  const readForm = async (request: http.IncomingMessage): Promise<Record<string, string>> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
  };
  const issue = (scope: string) => {
    const access = `at-${crypto.randomBytes(12).toString('hex')}`;
    const refresh = `rt-${crypto.randomBytes(12).toString('hex')}`;
    accessTokens.add(access);
    refreshTokens.set(refresh, scope);
    return { access, refresh };
  };

  const server = http.createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (request.method === 'GET' && url.pathname === paths.authorize) {
        const redirect = new URL(url.searchParams.get('redirect_uri') ?? '');
        const state = url.searchParams.get('state') ?? '';
        if (deny) {
          redirect.searchParams.set('error', 'access_denied');
        } else {
          const code = `code-${crypto.randomBytes(12).toString('hex')}`;
          codes.set(code, {
            clientId: url.searchParams.get('client_id') ?? '',
            redirectUri: url.searchParams.get('redirect_uri') ?? '',
            challenge: url.searchParams.get('code_challenge') ?? '',
            scope: url.searchParams.get('scope') ?? '',
          });
          redirect.searchParams.set('code', code);
        }
        redirect.searchParams.set('state', state);
        response.writeHead(302, { location: redirect.toString() });
        response.end();
        return;
      }
      if (request.method === 'POST' && (url.pathname === paths.token || url.pathname === paths.revoke)) {
        const form = await readForm(request);
        const basic = request.headers.authorization?.match(/^Basic (.+)$/)?.[1];
        let clientAuth: 'post' | 'basic' | 'none' = 'none';
        let id = form.client_id;
        let secret = form.client_secret;
        if (basic) {
          const [user, pass] = Buffer.from(basic, 'base64').toString('utf8').split(':').map(decodeURIComponent);
          [id, secret, clientAuth] = [user, pass, 'basic'];
        } else if (secret !== undefined) {
          clientAuth = 'post';
        }
        if (id !== options.clientId || secret !== options.clientSecret) {
          json(response, 401, { error: 'invalid_client', error_description: 'The OAuth client was not found.' });
          return;
        }
        if (url.pathname === paths.revoke) {
          const token = form.token ?? '';
          revoked.push(token);
          accessTokens.delete(token);
          refreshTokens.delete(token);
          response.writeHead(200).end();
          return;
        }
        tokenRequests.push({ form, clientAuth });
        if (behaviour === 'stall') {
          stalled.push(response);
          return;
        }
        if (behaviour === 'malformed') {
          response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Sign in to the Wi-Fi</body></html>');
          return;
        }
        if (behaviour === 'invalid_grant') {
          json(response, 400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
          return;
        }
        if (form.grant_type === 'authorization_code') {
          const grant = codes.get(form.code ?? '');
          codes.delete(form.code ?? '');
          const verifierHash = crypto
            .createHash('sha256')
            .update(form.code_verifier ?? '', 'ascii')
            .digest('base64url');
          if (!grant || grant.redirectUri !== form.redirect_uri || grant.clientId !== id || grant.challenge !== verifierHash) {
            json(response, 400, { error: 'invalid_grant', error_description: 'Bad code, redirect URI or code verifier.' });
            return;
          }
          const { access, refresh } = issue(grant.scope);
          json(response, 200, { access_token: access, expires_in: expiresIn, refresh_token: refresh, scope: grant.scope, token_type: 'Bearer' });
          return;
        }
        if (form.grant_type === 'refresh_token') {
          const scope = refreshTokens.get(form.refresh_token ?? '');
          if (scope === undefined) {
            json(response, 400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
            return;
          }
          if (options.refreshNeedsScope && !form.scope) {
            json(response, 400, { error: 'invalid_request', error_description: "AADSTS90014: The required field 'scope' is missing." });
            return;
          }
          const { access, refresh } = issue(scope);
          if (options.rotateRefreshTokens) {
            refreshTokens.delete(form.refresh_token ?? '');
            json(response, 200, { access_token: access, expires_in: expiresIn, refresh_token: refresh, scope, token_type: 'Bearer' });
            return;
          }
          // Like Google: a refresh answers a new access token and no new refresh token.
          refreshTokens.delete(refresh);
          json(response, 200, { access_token: access, expires_in: expiresIn, scope, token_type: 'Bearer' });
          return;
        }
        json(response, 400, { error: 'unsupported_grant_type' });
        return;
      }
      if (options.extra && (await options.extra(request, response, url))) return;
      json(response, 404, { error: 'not_found' });
    })().catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    authorizationEndpoint: `${url}${paths.authorize}`,
    tokenEndpoint: `${url}${paths.token}`,
    revocationEndpoint: `${url}${paths.revoke}`,
    behave: (next) => {
      behaviour = next;
    },
    setExpiresIn: (seconds) => {
      expiresIn = seconds;
    },
    setDeny: (next) => {
      deny = next;
    },
    tokenRequests,
    revoked,
    isValidAccessToken: (token) => accessTokens.has(token),
    close: async () => {
      for (const response of stalled) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
