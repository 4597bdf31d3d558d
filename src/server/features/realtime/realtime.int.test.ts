import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { RealtimeServerMessageSchema, type RealtimeServerMessage } from '#shared/contracts/realtime.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ listen: true, env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' } });
});
afterAll(() => t.close());

const signUp = (name: string) => signUpUser(t.app, `realtime-${name}`);

/** A socket with its messages queued, so a test can await "the next message" in order. */
async function connect() {
  const socket = new WebSocket(`${t.baseUrl.replace('http', 'ws')}/realtime`);
  const inbox: RealtimeServerMessage[] = [];
  const waiters: Array<(m: RealtimeServerMessage) => void> = [];
  socket.on('message', (data) => {
    const message = RealtimeServerMessageSchema.parse(JSON.parse(String(data)));
    const waiter = waiters.shift();
    if (waiter) waiter(message);
    else inbox.push(message);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const next = () => new Promise<RealtimeServerMessage>((resolve) => (inbox.length > 0 ? resolve(inbox.shift()!) : waiters.push(resolve)));
  return { socket, next, closed, send: (m: object) => socket.send(JSON.stringify(m)) };
}

describe('/realtime', () => {
  it('delivers a person their own events only, after they authenticate', async () => {
    const alice = await signUp('alice');
    const bob = await signUp('bob');
    const a = await connect();
    const b = await connect();
    a.send({ type: 'auth', accessToken: alice.token });
    b.send({ type: 'auth', accessToken: bob.token });
    expect(await a.next()).toEqual({ type: 'ready', userId: alice.userId });
    expect(await b.next()).toEqual({ type: 'ready', userId: bob.userId });

    const event = {
      type: 'meeting.progress',
      meetingId: crypto.randomUUID(),
      status: 'processing',
      stage: 'transcribing',
      progress: 0.5,
      failureReason: null,
    } as const;
    t.app.realtime.publish(alice.userId, event);
    expect(await a.next()).toEqual(event);
    b.send({ type: 'ping' });
    expect(await b.next()).toEqual({ type: 'pong' }); // nothing of Alice's came before Bob's pong

    a.socket.close();
    b.socket.close();
    await Promise.all([a.closed, b.closed]);
    await expect.poll(() => t.app.realtime.size()).toBe(0);
  });

  it('closes with 4401 on a bad token and 4400 on a malformed message', async () => {
    const bad = await connect();
    bad.send({ type: 'auth', accessToken: 'not-a-jwt' });
    expect((await bad.closed).code).toBe(4401);

    const malformed = await connect();
    malformed.socket.send('{"type":"subscribe-to-everyone"}');
    expect((await malformed.closed).code).toBe(4400);
  });
});
