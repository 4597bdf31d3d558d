import autocannon from 'autocannon';
import { describeLoad, type Row } from './lib/report.ts';

const JSON_HEADERS = { 'content-type': 'application/json', 'x-supabase-api-version': '2024-01-01' };

type Session = { access_token: string; refresh_token: string };

async function post(url: string, body: unknown, apikey: string): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { ...JSON_HEADERS, apikey }, body: JSON.stringify(body) });
}

export async function signUpAndIn(baseUrl: string, apikey: string, email: string, password: string): Promise<Session> {
  const signup = await post(`${baseUrl}/auth/v1/signup`, { email, password, data: { full_name: 'Bench User' } }, apikey);
  if (!signup.ok) throw new Error(`signup failed: ${signup.status} ${await signup.text()}`);
  return signIn(baseUrl, apikey, email, password);
}

export async function signIn(baseUrl: string, apikey: string, email: string, password: string): Promise<Session> {
  const res = await post(`${baseUrl}/auth/v1/token?grant_type=password`, { email, password }, apikey);
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as Session;
}

/** Password sign-in under concurrent load: dominated by the argon2id verification, by design. */
export async function benchSignIn(baseUrl: string, apikey: string, seconds: number): Promise<Row> {
  const email = `bench-signin-${Date.now()}@example.com`;
  await signUpAndIn(baseUrl, apikey, email, 'bench-password-1');
  const result = await autocannon({
    url: `${baseUrl}/auth/v1/token?grant_type=password`,
    method: 'POST',
    headers: { ...JSON_HEADERS, apikey },
    body: JSON.stringify({ email, password: 'bench-password-1' }),
    connections: 10,
    duration: seconds,
  });
  return { name: 'sign-in (password grant), 10 connections', value: describeLoad(result) };
}

/**
 * Refresh-token rotation under load. Each refresh consumes its token, so every request takes a
 * fresh token from a pool and puts the rotated one back, as many independent browsers would.
 */
export async function benchRefresh(baseUrl: string, apikey: string, seconds: number): Promise<Row> {
  const connections = 10;
  const email = `bench-refresh-${Date.now()}@example.com`;
  await signUpAndIn(baseUrl, apikey, email, 'bench-password-1');
  const pool: string[] = [];
  for (let i = 0; i < connections * 2; i++) pool.push((await signIn(baseUrl, apikey, email, 'bench-password-1')).refresh_token);
  let lost = 0;
  const result = await autocannon({
    url: `${baseUrl}/auth/v1/token?grant_type=refresh_token`,
    method: 'POST',
    headers: { ...JSON_HEADERS, apikey },
    connections,
    duration: seconds,
    requests: [
      {
        setupRequest: (request) => {
          const token = pool.shift();
          if (token === undefined) throw new Error('refresh-token pool ran dry');
          return { ...request, body: JSON.stringify({ refresh_token: token }) };
        },
        onResponse: (status, body) => {
          if (status === 200) pool.push((JSON.parse(body) as Session).refresh_token);
          else lost++;
        },
      },
    ],
  });
  return { name: 'token refresh (rotation), 10 connections', value: describeLoad(result), note: lost ? `${lost} tokens lost` : undefined };
}

/** The cheapest authenticated JSON endpoint: bearer verification + session check + one user read. */
export async function benchAuthenticatedJson(baseUrl: string, apikey: string, seconds: number): Promise<Row> {
  const email = `bench-api-${Date.now()}@example.com`;
  const session = await signUpAndIn(baseUrl, apikey, email, 'bench-password-1');
  const result = await autocannon({
    url: `${baseUrl}/api/v1/me`,
    headers: { authorization: `Bearer ${session.access_token}` },
    connections: 10,
    duration: seconds,
  });
  return { name: 'GET /api/v1/me (authenticated JSON), 10 connections', value: describeLoad(result) };
}
