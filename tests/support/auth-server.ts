import { buildTestApp, type TestApp } from './build-test-app.ts';
import { fetchAnonKey, memoryStorage, testClient, type MemoryStorage, type TestClient } from './supabase-client.ts';

export type AuthServer = TestApp & {
  anonKey: string;
  dataDir: string;
  client: (storage?: MemoryStorage) => TestClient;
};

/**
 * A real Parley server on a loopback port for the contract tests, in test mode: rate limits off
 * unless asked for, a generous email budget, and whatever auth settings the test file needs.
 */
export async function startAuthServer(env: Record<string, string> = {}): Promise<AuthServer> {
  const app = await buildTestApp({
    listen: true,
    env: {
      AUTH_RATE_LIMITS: 'false',
      AUTH_EMAIL_RATE_LIMIT_PER_HOUR: '10000',
      AUTH_URI_ALLOW_LIST: 'http://localhost:5173/**',
      ...env,
    },
  });
  const anonKey = await fetchAnonKey(app.baseUrl);
  return {
    ...app,
    anonKey,
    dataDir: app.config.dataDir,
    client: (storage = memoryStorage()) => testClient(app.baseUrl, anonKey, storage),
  };
}

/** Raw JSON request against /auth/v1, for protocol details the client hides. */
export async function authFetch(
  server: AuthServer,
  pathAndQuery: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string>; bearer?: string } = {},
): Promise<{ status: number; headers: Headers; body: unknown }> {
  const response = await fetch(`${server.baseUrl}/auth/v1${pathAndQuery}`, {
    method: init.method ?? 'GET',
    headers: {
      apikey: server.anonKey,
      authorization: `Bearer ${init.bearer ?? server.anonKey}`,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json;charset=UTF-8' }),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    redirect: 'manual',
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body };
}
