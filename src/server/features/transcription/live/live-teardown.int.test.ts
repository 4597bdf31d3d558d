import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { TYPESCRIPT_EXEC_ARGV } from '#server/lib/child-host/host-client.ts';
import { LIVE_PATH, LiveServerMessageSchema, type LiveServerMessage } from '#shared/contracts/live.ts';
import { findFreePort } from '#tests/support/build-test-app.ts';
import { waitForHealth } from '#tests/support/spawn-server.ts';
import { testDatabaseKind } from '#tests/support/test-database.ts';
import { spawnNode } from '#tests/support/test-worker.ts';

// Live sessions dropped right after they are ready, against the real server process (main.ts): Node's
// thread pool (4 threads) must stay free for sign-ups (argon2), static files and uploads, and SIGTERM
// must still stop the process. The recognisers' audio pipes once held a pool thread each until
// pocketsphinx opened them, and a killed one never did. The database plays no part: SQLite only.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-live-teardown-'));
const webDir = path.join(dataDir, 'web');
const running: ChildProcess[] = [];
afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function signUp(baseUrl: string): Promise<Response> {
  return fetch(`${baseUrl}/auth/v1/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `live-${crypto.randomUUID()}@example.com`, password: 'secret12' }),
    signal: AbortSignal.timeout(10_000),
  });
}

/** The server's child processes still running (their command names), read from /proc. */
function childrenOf(pid: number): string[] {
  return fs.readdirSync('/proc').flatMap((entry) => {
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …: comm may hold spaces, so read after its closing parenthesis.
      const [, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return /^\d+$/.test(entry) && Number(ppid) === pid ? [stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))] : [];
    } catch {
      return []; // not a process, or it ended meanwhile
    }
  });
}

/** A live session on a fresh two-channel meeting, closed by the browser the moment it is ready. */
async function openAndDrop(baseUrl: string, token: string) {
  const created = await fetch(`${baseUrl}/api/v1/meetings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Call', audioSources: ['Microphone', 'Shared tab'] }),
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const socket = new WebSocket(`${baseUrl.replace('http', 'ws')}${LIVE_PATH}`);
  const messages: LiveServerMessage[] = [];
  socket.on('message', (data) => messages.push(LiveServerMessageSchema.parse(JSON.parse(String(data)))));
  await once(socket, 'open');
  socket.send(JSON.stringify({ type: 'auth', accessToken: token, meetingId: id, channels: 2 }));
  await expect.poll(() => messages[0]?.type, { timeout: 20_000, interval: 5 }).toBe('ready');
  socket.terminate();
}

describe('live sessions dropped as soon as they are ready', () => {
  it.skipIf(testDatabaseKind() === 'postgres')(
    'leave sign-ups and static files answering, and SIGTERM still stops the server',
    { timeout: 90_000 },
    async () => {
      fs.mkdirSync(path.join(webDir, 'assets'), { recursive: true });
      fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Parley</title>');
      fs.writeFileSync(path.join(webDir, 'assets', 'app.js'), 'console.log("parley");');
      const port = await findFreePort();
      const baseUrl = `http://127.0.0.1:${port}`;
      const server = spawnNode(
        [...TYPESCRIPT_EXEC_ARGV, 'src/server/main.ts'],
        {
          NODE_ENV: 'production',
          PORT: String(port),
          HOST: '127.0.0.1',
          PUBLIC_URL: baseUrl,
          DATA_DIR: dataDir,
          WEB_DIR: webDir,
          DATABASE_URL: '',
          LOG_LEVEL: 'warn',
          AUTH_RATE_LIMITS: 'false',
          AUTH_AUTOCONFIRM: 'true',
          UV_THREADPOOL_SIZE: '4',
        },
        ['ignore', 'inherit', 'inherit'],
      );
      running.push(server);
      await waitForHealth(baseUrl, server);

      const first = await signUp(baseUrl);
      expect(first.status).toBe(200);
      const { access_token: token } = (await first.json()) as { access_token: string };
      // One account, its two sessions, two recognisers each: as many as the pool has threads.
      await Promise.all([openAndDrop(baseUrl, token), openAndDrop(baseUrl, token)]);

      const later = await signUp(baseUrl);
      expect(later.status).toBe(200);
      const asset = await fetch(`${baseUrl}/assets/app.js`, { signal: AbortSignal.timeout(10_000) });
      expect(asset.status).toBe(200);
      expect(await asset.text()).toContain('parley');
      // Torn down fully: the recognisers are gone and the account's two places are free again.
      await expect.poll(() => childrenOf(server.pid!).filter((name) => name === 'stdbuf' || name.startsWith('pocketsphinx')), { timeout: 10_000 }).toEqual([]);
      await Promise.all([openAndDrop(baseUrl, token), openAndDrop(baseUrl, token)]);
      expect((await signUp(baseUrl)).status).toBe(200);

      server.kill('SIGTERM');
      // close-with-grace gives up after 10 s and exits 1: a clean stop is 0, well before that.
      await expect.poll(() => server.exitCode ?? server.signalCode, { timeout: 20_000 }).toBe(0);
    },
  );
});
