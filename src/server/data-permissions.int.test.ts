import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as tus from 'tus-js-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MeetingDetail } from '#shared/contracts/meetings.ts';
import { findFreePort, signUpUser } from '#tests/support/build-test-app.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';
import { createTestDatabase, testDatabaseKind } from '#tests/support/test-database.ts';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { createDeps } from './deps.ts';

// The data folder is 0700 and every file in it 0600 whatever the umask: the database (SQLite and
// its -wal/-shm), the secret key, the development outbox, tus upload files and stored recordings.
// Run under umask 022, which would otherwise make them 0644 in a 0755 folder.

const CLIP = path.join(sharedAudioDir(), 'goforward.wav');
let previousUmask: number;
const cleanups: (() => Promise<void>)[] = [];
beforeEach(() => {
  previousUmask = process.umask(0o022);
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  process.umask(previousUmask);
});

/** A real server (listening) whose data folder is `dataDir`; on SQLite it keeps its database there itself. */
async function start(dataDir: string) {
  const port = await findFreePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: baseUrl, DATA_DIR: dataDir, AUTH_RATE_LIMITS: 'false' });
  const database = testDatabaseKind() === 'postgres' ? await createTestDatabase('postgres') : undefined;
  const deps = await createDeps(config, database ? { database } : {});
  const app = await buildApp(deps);
  await app.listen({ port, host: '127.0.0.1' });
  await deps.start();
  cleanups.push(async () => {
    await app.close();
    await deps.close();
    await database?.close();
  });
  return { app, baseUrl };
}

function tempRoot(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-perms-'));
  fs.chmodSync(root, 0o755);
  cleanups.push(async () => fs.rmSync(root, { recursive: true, force: true }));
  return root;
}

/** Every folder and file under `dir` (itself included) with its permission bits, as `path mode`. */
function modes(dir: string): string[] {
  const found = [`. ${(fs.statSync(dir).mode & 0o777).toString(8)}`];
  const walk = (current: string) => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      found.push(`${path.relative(dir, full)} ${(fs.statSync(full).mode & 0o777).toString(8)}`);
      if (entry.isDirectory()) walk(full);
    }
  };
  walk(dir);
  return found;
}

const notPrivate = (dir: string) => modes(dir).filter((line) => !/ (600|700)$/.test(line));

function upload(baseUrl: string, token: string, meetingId: string, data: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    new tus.Upload(data, {
      endpoint: `${baseUrl}/uploads`,
      headers: { authorization: `Bearer ${token}` },
      metadata: { meetingId, filetype: 'audio/wav' },
      retryDelays: [],
      onSuccess: () => resolve(),
      onError: reject,
    }).start();
  });
}

describe('the data folder under umask 022', () => {
  it('a new installation: the folder 0700, its database, key, outbox, uploads and recordings 0600', async () => {
    const dataDir = path.join(tempRoot(), 'data');
    const { app, baseUrl } = await start(dataDir);
    const headers = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

    // Without SMTP and with AUTH_AUTOCONFIRM unset, accounts are confirmed at once; a recovery email goes to the outbox.
    const { token, email } = await signUpUser(app, 'perms');
    expect((await app.inject({ method: 'POST', url: '/auth/v1/recover', payload: { email } })).statusCode).toBe(200);

    const create = (source: string) =>
      fetch(`${baseUrl}/api/v1/meetings`, { method: 'POST', headers: headers(token), body: JSON.stringify({ title: 'Permissions', source }) }).then(
        async (r) => ((await r.json()) as MeetingDetail).id,
      );
    const stored = await create('upload');
    await upload(baseUrl, token, stored, fs.readFileSync(CLIP));
    // An upload under way: its file and metadata wait in uploads/.
    const pending = await create('mic');
    const metadata = `meetingId ${Buffer.from(pending).toString('base64')},filetype ${Buffer.from('audio/webm').toString('base64')}`;
    const started = await fetch(`${baseUrl}/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0', 'upload-defer-length': '1', 'upload-metadata': metadata },
    });
    expect(started.status).toBe(201);

    const listed = modes(dataDir);
    const expected = [/^\. 700$/, /^secret\.key 600$/, /^outbox\/.+\.json 600$/, /^uploads 700$/, /^uploads\/[0-9a-f]+ 600$/, /^uploads\/[0-9a-f]+\.json 600$/];
    expected.push(/^blobs\/[0-9a-f]{2}\/[0-9a-f-]+\.wav 600$/);
    if (testDatabaseKind() === 'sqlite') expected.push(/^parley\.db 600$/, /^parley\.db-wal 600$/, /^parley\.db-shm 600$/);
    for (const pattern of expected)
      expect(
        listed.some((line) => pattern.test(line)),
        `${String(pattern)} in\n${listed.join('\n')}`,
      ).toBe(true);
    expect(notPrivate(dataDir)).toEqual([]);
  });

  it('an installation from before: its open folder and readable files are closed at start', async () => {
    const dataDir = path.join(tempRoot(), 'data');
    fs.mkdirSync(path.join(dataDir, 'blobs', 'ab'), { recursive: true, mode: 0o755 });
    fs.writeFileSync(path.join(dataDir, 'blobs', 'ab', 'old-recording.webm'), 'audio', { mode: 0o644 });
    fs.writeFileSync(path.join(dataDir, 'notes.txt'), 'kept', { mode: 0o644 });
    expect(notPrivate(dataDir).length).toBeGreaterThan(0);

    await start(dataDir);
    expect(notPrivate(dataDir)).toEqual([]);
    expect(fs.readFileSync(path.join(dataDir, 'notes.txt'), 'utf8')).toBe('kept');
  });
});
