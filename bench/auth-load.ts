import { spawn } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import { findFreePort } from '#tests/support/build-test-app.ts';
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

/**
 * The cheapest authenticated JSON endpoint (bearer verification + live-session check + one user
 * read), measured side by side with its anchor: a bare Fastify route doing the same work
 * (lib/bare-me-server.ts) on the same database and token, in turns, so both see the same machine.
 * Goal: Parley at ≥ 0.7× the anchor's throughput.
 */
export async function benchAuthenticatedJson(baseUrl: string, dataDir: string, apikey: string, seconds: number): Promise<{ rows: Row[]; line: string }> {
  const email = `bench-api-${Date.now()}@example.com`;
  const session = await signUpAndIn(baseUrl, apikey, email, 'bench-password-1');
  const headers = { authorization: `Bearer ${session.access_token}` };
  const port = await findFreePort();
  const anchor = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'bench/lib/bare-me-server.ts',
      String(port),
      path.join(dataDir, 'parley.db'),
      `${baseUrl}/auth/v1/.well-known/jwks.json`,
      `${baseUrl}/auth/v1`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    await new Promise<void>((resolve, reject) => {
      anchor.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && resolve());
      anchor.once('exit', (code) => reject(new Error(`the anchor server exited with ${code}`)));
    });
    const anchorUrl = `http://127.0.0.1:${port}/me`;
    const check = await fetch(anchorUrl, { headers });
    if (!check.ok) throw new Error(`the anchor answered ${check.status}: ${await check.text()}`);
    const load = (url: string, duration: number) => autocannon({ url, headers, connections: 10, duration });
    // Warm both up, then alternate halves so a passing disturbance touches both alike.
    await load(`${baseUrl}/api/v1/me`, 2);
    await load(anchorUrl, 2);
    const half = Math.max(1, Math.round(seconds / 2));
    const ours: autocannon.Result[] = [];
    const bare: autocannon.Result[] = [];
    for (let round = 0; round < 2; round++) {
      ours.push(await load(`${baseUrl}/api/v1/me`, half));
      bare.push(await load(anchorUrl, half));
    }
    const rate = (results: autocannon.Result[]) => results.reduce((sum, r) => sum + r.requests.average, 0) / results.length;
    const ratio = rate(ours) / rate(bare);
    return {
      rows: [
        { name: 'GET /api/v1/me (authenticated JSON), 10 connections', value: describeLoad(ours.at(-1)!) },
        { name: 'bare Fastify + jose + SQLite doing the same work (anchor)', value: describeLoad(bare.at(-1)!) },
        { name: '/api/v1/me throughput ÷ anchor', value: `${ratio.toFixed(2)}×`, note: `goal ≥ 0.70× — ${ratio >= 0.7 ? 'met' : 'NOT met'}` },
      ],
      line: `me overhead: parley ${rate(ours).toFixed(0)} req/s, bare ${rate(bare).toFixed(0)} req/s = ${ratio.toFixed(2)}x (goal ≥ 0.7x)`,
    };
  } finally {
    anchor.kill();
  }
}
