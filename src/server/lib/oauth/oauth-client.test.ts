import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOAuthServer, type FakeOAuthServer } from '#tests/support/fake-oauth-server.ts';
import type { Clock } from '../clock.ts';
import { createSecretBox } from '../secret-box.ts';
import { createMemoryRateLimiters } from '../rate-limit.ts';
import { createOAuthClient, createReplayGuard, OAuthError, type OAuthClientOptions, type OAuthProvider } from './oauth-client.ts';

const CLIENT_ID = 'parley-test.apps.example';
const CLIENT_SECRET = 'shh-client-secret';
const REDIRECT_URI = 'http://parley.test/settings/connections/example/callback';

let server: FakeOAuthServer;
beforeAll(async () => {
  server = await startFakeOAuthServer({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
});
afterAll(async () => {
  await server.close();
});

function setUp(overrides: Partial<OAuthProvider> = {}, options: Partial<OAuthClientOptions> = {}) {
  let now = new Date('2026-12-07T09:00:00Z').getTime();
  const clock: Clock = { now: () => new Date(now) };
  const provider: OAuthProvider = {
    id: 'example',
    issuer: server.url,
    authorizationEndpoint: server.authorizationEndpoint,
    tokenEndpoint: server.tokenEndpoint,
    revocationEndpoint: server.revocationEndpoint,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    scopes: ['calendar.events', 'profile'],
    redirectUri: REDIRECT_URI,
    authorizationParameters: { access_type: 'offline', prompt: 'consent' },
    ...overrides,
  };
  const client = createOAuthClient({
    provider,
    box: createSecretBox(crypto.randomBytes(32)),
    replayGuard: createReplayGuard(createMemoryRateLimiters(), 'test'),
    clock,
    allowInsecureRequests: true,
    timeoutMs: 1_000,
    ...options,
  });
  return { client, clock, advance: (ms: number) => (now += ms) };
}

/** What a browser does with the authorization URL: follows it and reads where it lands. */
async function approve(authorizationUrl: string): Promise<URLSearchParams> {
  const answer = await fetch(authorizationUrl, { redirect: 'manual' });
  return new URL(answer.headers.get('location') ?? '').searchParams;
}

const rejection = async (work: Promise<unknown>): Promise<OAuthError> => {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OAuthError);
  return error as OAuthError;
};

describe('the OAuth client', () => {
  it('runs the code flow with PKCE and the provider parameters, and the state opens only once for the person', async () => {
    server.behave('ok');
    const { client } = setUp();
    const { authorizationUrl } = client.start({ userId: 'user-1' });
    const url = new URL(authorizationUrl);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('scope')).toBe('calendar.events profile');
    expect(url.searchParams.get('access_type')).toBe('offline');
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    // The verifier travels sealed: nothing in the URL is it.
    expect(authorizationUrl).not.toMatch(/code_verifier/);

    const callback = await approve(authorizationUrl);
    await expect(client.finish({ userId: 'user-2', callback })).rejects.toMatchObject({ kind: 'invalid_state' });
    const tokens = await client.finish({ userId: 'user-1', callback });
    expect(server.isValidAccessToken(tokens.accessToken)).toBe(true);
    expect(tokens.refreshToken).toMatch(/^rt-/);
    expect(tokens.expiresAt?.toISOString()).toBe('2026-12-07T10:00:00.000Z');
    expect(server.tokenRequests.at(-1)).toMatchObject({ clientAuth: 'post', form: { grant_type: 'authorization_code', redirect_uri: REDIRECT_URI } });

    expect((await rejection(client.finish({ userId: 'user-1', callback }))).message).toMatch(/already used/);
  });

  it('refuses a forged, expired or other provider state, and says when the person declined', async () => {
    const { client, advance } = setUp();
    expect((await rejection(client.finish({ userId: 'user-1', callback: new URLSearchParams({ code: 'x', state: 'made-up' }) }))).kind).toBe('invalid_state');

    const other = setUp({ id: 'other' }).client;
    const foreign = await approve(other.start({ userId: 'user-1' }).authorizationUrl);
    expect((await rejection(client.finish({ userId: 'user-1', callback: foreign }))).kind).toBe('invalid_state');

    const late = await approve(client.start({ userId: 'user-1' }).authorizationUrl);
    advance(11 * 60_000);
    expect((await rejection(client.finish({ userId: 'user-1', callback: late }))).message).toMatch(/took too long/);

    server.setDeny(true);
    try {
      const declined = await approve(client.start({ userId: 'user-1' }).authorizationUrl);
      expect((await rejection(client.finish({ userId: 'user-1', callback: declined }))).kind).toBe('denied');
    } finally {
      server.setDeny(false);
    }
  });

  it('refreshes before expiry with HTTP Basic client authentication, keeping the refresh token', async () => {
    server.behave('ok');
    const { client, advance } = setUp({ clientAuthentication: 'client_secret_basic' });
    const first = await client.finish({ userId: 'u', callback: await approve(client.start({ userId: 'u' }).authorizationUrl) });
    expect(await client.fresh(first)).toEqual({ tokens: first, refreshed: false });
    advance(59 * 60_000); // one minute left: inside the two-minute margin
    const { tokens, refreshed } = await client.fresh(first);
    expect(refreshed).toBe(true);
    expect(tokens.accessToken).not.toBe(first.accessToken);
    expect(tokens.refreshToken).toBe(first.refreshToken);
    expect(server.tokenRequests.at(-1)).toMatchObject({ clientAuth: 'basic', form: { grant_type: 'refresh_token', refresh_token: first.refreshToken } });
  });

  it('revokes at the provider, and a revoked grant refuses to refresh with invalid_grant', async () => {
    server.behave('ok');
    const { client } = setUp();
    const tokens = await client.finish({ userId: 'u', callback: await approve(client.start({ userId: 'u' }).authorizationUrl) });
    expect(await client.revoke(tokens.refreshToken ?? '')).toBe(true);
    expect(server.revoked).toContain(tokens.refreshToken);
    const refused = await rejection(client.refresh(tokens.refreshToken ?? ''));
    expect(refused).toMatchObject({ kind: 'refused', providerError: 'invalid_grant' });
    expect(refused.message).toMatch(/expired or revoked/);
    expect(await setUp({ revocationEndpoint: undefined }).client.revoke('anything')).toBe(false);
  });

  it('names a malformed answer, a timeout and an unreachable provider', async () => {
    const { client } = setUp();
    try {
      server.behave('malformed');
      expect((await rejection(client.refresh('rt-x'))).kind).toBe('malformed');
      server.behave('stall');
      const started = Date.now();
      const timedOut = await rejection(client.refresh('rt-x'));
      expect(timedOut.kind).toBe('unreachable');
      expect(timedOut.message).toMatch(/did not answer/);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      server.behave('ok');
    }
    const nowhere = setUp({ tokenEndpoint: 'http://127.0.0.1:1/token' }).client;
    expect((await rejection(nowhere.refresh('rt-x'))).kind).toBe('unreachable');
  });

  it('sends every request through the fetch it is given (the outbound guard)', async () => {
    server.behave('ok');
    const seen: string[] = [];
    const guarded: typeof fetch = async (input, init) => {
      seen.push(String(input instanceof Request ? input.url : input));
      return await fetch(input, init);
    };
    const { client } = setUp({}, { fetch: guarded });
    await client.finish({ userId: 'u', callback: await approve(client.start({ userId: 'u' }).authorizationUrl) });
    expect(seen).toEqual([server.tokenEndpoint]);
  });
});
