import { once } from 'node:events';
import SqliteDatabase from 'better-sqlite3';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { LIVE_CLOSE, LIVE_PATH, LiveServerMessageSchema, type LiveServerMessage } from '#shared/contracts/live.ts';
import { REALTIME_PATH, RealtimeServerMessageSchema, type RealtimeServerMessage } from '#shared/contracts/realtime.ts';
import { buildApp } from '#server/app.ts';
import { createDeps } from '#server/deps.ts';
import { buildTestApp, findFreePort, type TestApp } from '#tests/support/build-test-app.ts';
import { fetchAnonKey, freshEmail, testClient } from '#tests/support/supabase-client.ts';
import { testDatabaseKind } from '#tests/support/test-database.ts';

// Sockets opened with a session's access token close (4401) when that session ends: signed out here
// or elsewhere, ended by a refresh-token reuse; the person's other sessions keep theirs. On PostgreSQL
// the signal also crosses to a second server process on the same database (LISTEN/NOTIFY).

let t: TestApp;
let anonKey: string;
let now = new Date();
beforeAll(async () => {
  t = await buildTestApp({
    listen: true,
    env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false', AUTH_REFRESH_TOKEN_REUSE_INTERVAL: '10' },
    deps: { clock: { now: () => now } },
  });
  anonKey = await fetchAnonKey(t.baseUrl);
});
afterAll(() => t.close());

const wsUrl = (baseUrl: string, path: string) => `${baseUrl.replace('http', 'ws')}${path}`;

/** A /realtime socket authenticated with `accessToken`, its messages and its close code as they come. */
async function realtimeSocket(accessToken: string, baseUrl = t.baseUrl) {
  const socket = new WebSocket(wsUrl(baseUrl, REALTIME_PATH));
  const messages: RealtimeServerMessage[] = [];
  let closedWith: number | undefined;
  socket.on('message', (data) => messages.push(RealtimeServerMessageSchema.parse(JSON.parse(String(data)))));
  socket.on('close', (code) => (closedWith = code));
  await once(socket, 'open');
  socket.send(JSON.stringify({ type: 'auth', accessToken }));
  await expect.poll(() => messages[0]?.type).toBe('ready');
  return {
    closedWith: () => closedWith,
    /** Still open and answering: a ping comes back as a pong. */
    answers: async () => {
      const pongs = messages.filter((m) => m.type === 'pong').length;
      socket.send(JSON.stringify({ type: 'ping' }));
      await expect.poll(() => messages.filter((m) => m.type === 'pong').length).toBe(pongs + 1);
      return closedWith === undefined;
    },
    close: () => socket.close(),
  };
}

/** Two sign-ins of one person with the real supabase-js client: two sessions. */
async function twoSessions() {
  const email = freshEmail('session-end');
  const first = testClient(t.baseUrl, anonKey);
  const signedUp = await first.sb.auth.signUp({ email, password: 'secret12' });
  if (signedUp.error || !signedUp.data.session) throw signedUp.error ?? new Error('no session');
  const second = testClient(t.baseUrl, anonKey);
  const signedIn = await second.sb.auth.signInWithPassword({ email, password: 'secret12' });
  if (signedIn.error) throw signedIn.error;
  return { first: first.sb, second: second.sb, firstSession: signedUp.data.session, secondSession: signedIn.data.session };
}

describe('sockets of an ended session', () => {
  it('sign-out closes that session’s realtime and live sockets with 4401; the other session’s socket stays open', { timeout: 30_000 }, async () => {
    const { first, firstSession, secondSession } = await twoSessions();
    const mine = await realtimeSocket(firstSession.access_token);
    const other = await realtimeSocket(secondSession.access_token);

    // A live transcript of a recording in progress, opened with the same session.
    const created = await fetch(`${t.baseUrl}/api/v1/meetings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${firstSession.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Live' }),
    });
    const { id: meetingId } = (await created.json()) as { id: string };
    const live = new WebSocket(wsUrl(t.baseUrl, LIVE_PATH));
    const liveMessages: LiveServerMessage[] = [];
    let liveClosedWith: number | undefined;
    live.on('message', (data) => liveMessages.push(LiveServerMessageSchema.parse(JSON.parse(String(data)))));
    live.on('close', (code) => (liveClosedWith = code));
    await once(live, 'open');
    live.send(JSON.stringify({ type: 'auth', accessToken: firstSession.access_token, meetingId }));
    await expect.poll(() => liveMessages[0]?.type, { timeout: 15_000 }).toBe('ready');

    expect((await first.auth.signOut({ scope: 'local' })).error).toBeNull();
    await expect.poll(() => mine.closedWith()).toBe(4401);
    await expect.poll(() => liveClosedWith).toBe(LIVE_CLOSE.unauthenticated);
    expect(await other.answers()).toBe(true);
    other.close();
  });

  it('a global sign-out closes the sockets of every session of that person, and no one else’s', async () => {
    const { second, firstSession, secondSession } = await twoSessions();
    const someoneElse = await twoSessions();
    const sockets = [await realtimeSocket(firstSession.access_token), await realtimeSocket(secondSession.access_token)];
    const theirs = await realtimeSocket(someoneElse.firstSession.access_token);

    expect((await second.auth.signOut({ scope: 'global' })).error).toBeNull();
    for (const socket of sockets) await expect.poll(() => socket.closedWith()).toBe(4401);
    expect(await theirs.answers()).toBe(true);
    theirs.close();
  });

  it('a new password signs out the other devices: their sockets close, this one’s stays open', async () => {
    const { second, firstSession, secondSession } = await twoSessions();
    const elsewhere = await realtimeSocket(firstSession.access_token);
    const here = await realtimeSocket(secondSession.access_token);
    expect((await second.auth.updateUser({ password: 'brandnew12', current_password: 'secret12' })).error).toBeNull();
    await expect.poll(() => elsewhere.closedWith()).toBe(4401);
    expect(await here.answers()).toBe(true);
    here.close();
  });

  it('turning on two-factor sign-in ends the other sessions that never passed it, and closes their sockets', async () => {
    const { first, firstSession, secondSession } = await twoSessions();
    const enrolling = await realtimeSocket(firstSession.access_token);
    const passwordOnly = await realtimeSocket(secondSession.access_token);
    const factor = (await first.auth.mfa.enroll({ factorType: 'totp' })).data!;
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(factor.totp.secret) }).generate();
    expect((await first.auth.mfa.challengeAndVerify({ factorId: factor.id, code })).error).toBeNull();
    await expect.poll(() => passwordOnly.closedWith()).toBe(4401);
    expect(await enrolling.answers()).toBe(true);
    enrolling.close();
  });

  it('a refresh-token reuse that ends the session closes its socket', async () => {
    const { first, firstSession, secondSession } = await twoSessions();
    const mine = await realtimeSocket(firstSession.access_token);
    const other = await realtimeSocket(secondSession.access_token);
    // The first token rotated away longer ago than the reuse interval, and not the active one's parent.
    expect((await first.auth.refreshSession()).error).toBeNull();
    now = new Date(now.getTime() + 15_000);
    expect((await first.auth.refreshSession()).error).toBeNull();

    const replayed = await testClient(t.baseUrl, anonKey).sb.auth.refreshSession({ refresh_token: firstSession.refresh_token });
    expect(replayed.error?.code).toBe('refresh_token_already_used');
    await expect.poll(() => mine.closedWith()).toBe(4401);
    expect(await other.answers()).toBe(true);
    other.close();
  });

  // The window: the socket's authentication has read the session, and watches for its end only
  // after. Here the sign-out lands in it exactly: when the socket subscribes (just before it
  // watches), the session's row is deleted and its end announced, both at once (better-sqlite3 is
  // synchronous), as a sign-out handled between those two steps would.
  it.runIf(testDatabaseKind() === 'sqlite')(
    'a sign-out while the socket authenticates closes it, though its end was announced before the socket watched',
    async () => {
      const { firstSession } = await twoSessions();
      const sessionId = (JSON.parse(Buffer.from(firstSession.access_token.split('.')[1]!, 'base64url').toString()) as { session_id: string }).session_id;
      const hub = t.deps.realtime;
      const subscribe = hub.subscribe;
      hub.subscribe = (userId, listener) => {
        hub.subscribe = subscribe;
        const target = t.database.target;
        if (target.kind !== 'sqlite') throw new Error('SQLite only');
        const file = new SqliteDatabase(target.file);
        file.prepare('delete from auth_sessions where id = ?').run(sessionId);
        file.close();
        hub.endSessions({ userId, sessionIds: [sessionId] });
        return subscribe(userId, listener);
      };
      const socket = new WebSocket(wsUrl(t.baseUrl, REALTIME_PATH));
      const messages: RealtimeServerMessage[] = [];
      socket.on('message', (data) => messages.push(RealtimeServerMessageSchema.parse(JSON.parse(String(data)))));
      let closedWith: number | undefined;
      socket.on('close', (code) => (closedWith = code));
      await once(socket, 'open');
      socket.send(JSON.stringify({ type: 'auth', accessToken: firstSession.access_token }));
      // Closed as ended, never ready (left open, it would go on receiving the person's events).
      await expect.poll(() => closedWith ?? messages[0]?.type).toBe(4401);
      expect(messages).toEqual([]);
      expect(hub.subscribe).toBe(subscribe);
    },
  );

  it.skipIf(testDatabaseKind() !== 'postgres')(
    'a sign-out on one server process closes the session’s socket held by another',
    { timeout: 30_000 },
    async () => {
      // A second process's worth of server on the same database: its own hub and LISTEN connection.
      const port = await findFreePort();
      const deps = await createDeps(t.config, { database: t.database });
      const app = await buildApp(deps);
      await app.listen({ port, host: '127.0.0.1' });
      try {
        const { first, firstSession, secondSession } = await twoSessions();
        const elsewhere = await realtimeSocket(firstSession.access_token, `http://127.0.0.1:${port}`);
        const otherElsewhere = await realtimeSocket(secondSession.access_token, `http://127.0.0.1:${port}`);
        expect((await first.auth.signOut({ scope: 'local' })).error).toBeNull();
        await expect.poll(() => elsewhere.closedWith()).toBe(4401);
        expect(await otherElsewhere.answers()).toBe(true);
        otherElsewhere.close();
      } finally {
        await app.close();
        await deps.close();
      }
    },
  );
});
