import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeChatService, type FakeChatService } from '#tests/support/fake-openai-chat.ts';
import { startFakeSmtp } from '#tests/support/fake-smtp.ts';
import { findFreePort } from '#tests/support/build-test-app.ts';
import { createTestDatabase } from '#tests/support/test-database.ts';
import { databaseEnv, killTestWorkers, startTestWorker, WORKER_START_MS } from '#tests/support/test-worker.ts';

// A hand-off between features is under way when the server is killed (kill -9: no shutdown, nothing
// flushed). The change it follows was committed with its event, so the next start finishes it, once.

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let dataDir: string;
let chat: FakeChatService;
let smtp: Awaited<ReturnType<typeof startFakeSmtp>>;
beforeAll(async () => {
  database = await createTestDatabase(undefined, { migrated: true });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-kill-'));
  chat = await startFakeChatService();
  // The mail server takes the first message and never answers: the email is in flight when the server dies.
  smtp = await startFakeSmtp({ holdFirst: 1 });
});
afterEach(() => killTestWorkers());
afterAll(async () => {
  await smtp.close();
  await chat.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function startServer(port: number) {
  const server = await startTestWorker('tests/support/hand-off-server.ts', {
    ...databaseEnv(database.target),
    DATA_DIR: dataDir,
    PORT: String(port),
    SMTP_PORT: String(smtp.port),
    NOTES_LLM_URL: chat.url,
  });
  const base = `http://127.0.0.1:${port}`;
  const call = async (token: string | undefined, method: string, url: string, body?: unknown) => {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };
  return { ...server, call };
}

async function signUp(server: Awaited<ReturnType<typeof startServer>>, name: string) {
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const { status, json } = await server.call(undefined, 'POST', '/auth/v1/signup', { email, password: 'correct horse battery', data: { full_name: name } });
  expect(status).toBe(200);
  return { email, token: String(json.access_token) };
}

describe('hand-offs survive kill -9', () => {
  it(
    'an invitation email and the notes of an imported transcript, in flight when the server died, arrive once after it starts again',
    { timeout: 4 * WORKER_START_MS },
    async () => {
      const port = await findFreePort();
      let server = await startServer(port);
      const owner = await signUp(server, 'Kill Owner');
      const guest = await signUp(server, 'Kill Guest');
      const team = await server.call(owner.token, 'POST', '/api/v1/teams', { name: 'Crash test' });
      expect(team.status).toBe(201);

      chat.behave('stall');
      const invited = await server.call(owner.token, 'POST', `/api/v1/teams/${String(team.json.id)}/invitations`, { email: guest.email });
      expect(invited.status).toBe(201);
      const imported = await server.call(owner.token, 'POST', '/api/v1/meetings/imports', {
        fileName: 'launch.txt',
        content: 'Dana: We launch on Friday.\nSam: I will book the venue by Wednesday.\nDana: Then it is decided.',
      });
      expect(imported.status).toBe(201);
      const meetingId = String(imported.json.id);
      // Both hand-offs are under way: the email is with the mail server, the notes with the model.
      await expect.poll(() => smtp.held.length, { timeout: 30_000 }).toBe(1);
      await expect.poll(() => chat.requests.length, { timeout: 30_000 }).toBeGreaterThan(0);
      await server.kill();

      chat.behave('ok');
      server = await startServer(port);
      const toGuest = () => smtp.messages.filter((m) => JSON.stringify(m.to ?? '').includes(guest.email));
      await expect.poll(() => toGuest().length, { timeout: 60_000 }).toBe(1);
      expect(toGuest()[0]!.text).toContain('Crash test');
      await expect
        .poll(async () => ((await server.call(owner.token, 'GET', `/api/v1/meetings/${meetingId}`)).json.notes as { status: string }).status, {
          timeout: 60_000,
        })
        .toBe('ready');
      const meeting = (await server.call(owner.token, 'GET', `/api/v1/meetings/${meetingId}`)).json as { insights: { text: string }[] };
      const texts = meeting.insights.map((i) => i.text);
      expect(texts.length).toBeGreaterThan(0);
      expect(new Set(texts).size).toBe(texts.length);
      // Nothing was sent twice, and nothing is left over: the held message never counted.
      expect(toGuest()).toHaveLength(1);
      await server.kill();
    },
  );
});
