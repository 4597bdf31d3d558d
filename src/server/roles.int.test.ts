import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { TYPESCRIPT_EXEC_ARGV } from '#server/lib/child-host/host-client.ts';
import { MeetingDetailSchema } from '#shared/contracts/meetings.ts';
import { RealtimeServerMessageSchema, type RealtimeServerMessage } from '#shared/contracts/realtime.ts';
import { findFreePort } from '#tests/support/build-test-app.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';
import { waitForHealth } from '#tests/support/spawn-server.ts';
import { createTestDatabase, testDatabaseKind, type TestDatabaseTarget } from '#tests/support/test-database.ts';
import { spawnNode } from '#tests/support/test-worker.ts';

// ROLE=web and ROLE=worker as separate processes (main.ts, as a deployment runs them) on one
// PostgreSQL database: the web process takes the upload and queues the job, only the worker runs
// it, and the progress reaches the browser's socket on the web process through LISTEN/NOTIFY.
// Split roles need PostgreSQL (config.ts refuses them on SQLite), so this runs in that project only.

const onPostgres = testDatabaseKind() === 'postgres';
let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-roles-'));
const running: ChildProcess[] = [];

/** The test schema's connection string: the same database, with its search_path. */
function databaseUrl(target: TestDatabaseTarget): string {
  if (target.kind !== 'postgres') throw new Error('roles need PostgreSQL');
  const url = new URL(target.url);
  url.searchParams.set('options', `-c search_path=${target.schema}`);
  return url.toString();
}

function startProcess(role: 'web' | 'worker', port: number) {
  const child = spawnNode(
    [...TYPESCRIPT_EXEC_ARGV, 'src/server/main.ts'],
    {
      NODE_ENV: 'production',
      ROLE: role,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl(database!.target),
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMITS: 'false',
      AUTH_AUTOCONFIRM: 'true',
      TRANSCRIBE_ENGINE: 'pocketsphinx',
    },
    ['ignore', 'inherit', 'pipe'],
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  running.push(child);
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  return { child, stop, stderr: () => stderr };
}

beforeAll(async () => {
  if (onPostgres) database = await createTestDatabase();
});
afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  await database?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('separate web and worker processes (ROLE)', () => {
  it.skipIf(!onPostgres)(
    'queue on the web process, work on the worker, and stream progress back to the web process’s sockets',
    { timeout: 400_000 },
    async () => {
      const port = await findFreePort();
      const web = startProcess('web', port);
      const baseUrl = `http://127.0.0.1:${port}`;
      // Both processes run from source (tsx), compiled as they start: slow on two busy cores.
      await waitForHealth(baseUrl, web.child, 90_000);

      const email = `roles-${crypto.randomUUID()}@example.com`;
      const signUp = await fetch(`${baseUrl}/auth/v1/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'secret12' }),
      });
      const { access_token: token } = (await signUp.json()) as { access_token: string };
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

      const socket = new WebSocket(`${baseUrl.replace('http', 'ws')}/realtime`);
      const messages: RealtimeServerMessage[] = [];
      socket.on('message', (data) => messages.push(RealtimeServerMessageSchema.parse(JSON.parse(String(data)))));
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      socket.send(JSON.stringify({ type: 'auth', accessToken: token }));
      await expect.poll(() => messages.some((m) => m.type === 'ready')).toBe(true);

      const created = await fetch(`${baseUrl}/api/v1/meetings`, { method: 'POST', headers, body: JSON.stringify({ title: 'Split roles', source: 'upload' }) });
      const { id } = (await created.json()) as { id: string };
      const clip = fs.readFileSync(path.join(sharedAudioDir(), 'goforward.wav'));
      await new Promise<void>((resolve, reject) =>
        new tus.Upload(clip, {
          endpoint: `${baseUrl}/uploads`,
          headers: { authorization: `Bearer ${token}` },
          metadata: { meetingId: id, filetype: 'audio/wav', filename: 'goforward.wav' },
          retryDelays: [],
          onSuccess: () => resolve(),
          onError: reject,
        }).start(),
      );
      const read = async () => MeetingDetailSchema.parse(await (await fetch(`${baseUrl}/api/v1/meetings/${id}`, { headers })).json());

      // The web process only queues: with no worker up, the job waits.
      await expect.poll(async () => (await read()).processing?.stage, { timeout: 30_000 }).toBe('queued');
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect((await read()).status).toBe('processing');

      const worker = startProcess('worker', await findFreePort());
      // Generous: npm test runs this at nice 10 beside the speech engines and the browser, where the
      // worker's start from source and its transcription wait for the CPU.
      await expect.poll(async () => (await read()).status, { timeout: 200_000, interval: 250 }).toBe('ready');
      const done = await read();
      expect(done.segments.map((s) => s.text.toLowerCase()).join(' ')).toContain('forward');
      // The worker's events crossed to the web process's socket: its stages, then ready.
      const progress = () =>
        messages.filter((m) => m.type === 'meeting.progress' && m.meetingId === id).map((m) => (m.type === 'meeting.progress' ? (m.stage ?? m.status) : ''));
      // The API can say ready a moment before the event has crossed LISTEN/NOTIFY to this socket.
      await expect.poll(() => progress().at(-1)).toBe('ready');
      expect(progress()).toContain('transcribing');
      await expect.poll(async () => (await read()).notes.status, { timeout: 60_000, interval: 250 }).toBe('ready');
      await expect.poll(() => messages.some((m) => m.type === 'meeting.notes' && m.meetingId === id && m.notes.status === 'ready')).toBe(true);
      // A worker serves no HTTP.
      expect(worker.stderr()).not.toMatch(/Error/);
      socket.close();
      await worker.stop();
      await web.stop();
    },
  );
});
