import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseKind } from '#tests/support/test-database.ts';
import { bestEffortFailures } from '../best-effort.ts';
import type { HubMessage } from './realtime-hub.ts';
import { createPostgresTransport, type PostgresTransport } from './realtime-postgres.ts';

// Realtime events between processes (LISTEN/NOTIFY): a process whose connection to PostgreSQL is
// lost opens it again, and keeps trying while the database refuses (a restart takes a while), so it
// hears the other processes again once the database is back.

/** A TCP proxy in front of PostgreSQL that can drop its connections and refuse new ones, as a restart does. */
async function startDatabaseProxy(target: URL) {
  let down = false;
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    client.on('error', () => undefined);
    if (down) return void client.destroy();
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    open.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    /** Drops every connection and refuses new ones until `up()`. */
    down: () => {
      down = true;
      for (const socket of open) socket.destroy();
      open.clear();
    },
    up: () => {
      down = false;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const transports: PostgresTransport[] = [];
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(transports.map((transport) => transport.close()));
  await Promise.all(closers.map((close) => close()));
});

describe.skipIf(testDatabaseKind() !== 'postgres')('the PostgreSQL realtime transport', () => {
  it('reconnects after the database refused its first attempts, and hears the other processes again', async () => {
    const database = await createTestDatabase('postgres');
    closers.push(database.close);
    const direct = new URL(database.url!);
    const proxy = await startDatabaseProxy(direct);
    closers.push(proxy.close);
    const log = pino({ level: 'silent' });
    const channel = `parley_realtime_reconnect_${process.pid}_${Date.now()}`;
    const listener = await createPostgresTransport({ url: proxy.url, channel, log });
    const sender = await createPostgresTransport({ url: direct.toString(), channel, log });
    transports.push(listener, sender);
    const heard: HubMessage[] = [];
    listener.onMessage((message) => heard.push(message));

    const refusedBefore = bestEffortFailures()['realtime-reconnect'];
    proxy.down();
    // Its reconnects are refused (and counted) while the database is down...
    await expect.poll(() => bestEffortFailures()['realtime-reconnect'], { timeout: 15_000 }).toBeGreaterThan(refusedBefore);
    proxy.up();
    // ...and one succeeds once it is back: what the other process sends arrives.
    const message: HubMessage = { userId: 'someone', sessionsEnded: { sessionIds: ['s1'] } };
    await expect
      .poll(
        () => {
          sender.send(message);
          return heard.length;
        },
        { timeout: 15_000, interval: 300 },
      )
      .toBeGreaterThan(0);
    expect(heard[0]).toEqual(message);
  });
});
