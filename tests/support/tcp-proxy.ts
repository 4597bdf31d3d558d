import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy in front of a test server, for what an HTTP proxy cannot do to a WebSocket: drop the
 * connections that opened with a given request path, as a network failure would (no close frame),
 * and refuse new ones. Everything else passes through untouched.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<{
  url: string;
  /** The request path each connection opened with, in order (refused ones too). */
  opened: string[];
  /** Drops every open connection that began with this path. */
  cut: (path: string) => void;
  /** From now on, closes connections that begin with this path as soon as their request arrives. */
  refuse: (path: string) => void;
  close: () => Promise<void>;
}> {
  const opened: string[] = [];
  const open = new Map<net.Socket, { path: string; upstream: net.Socket }>();
  const refused = new Set<string>();
  const server = net.createServer((client) => {
    client.on('error', () => undefined);
    client.once('data', (first) => {
      client.pause();
      const path = /^[A-Z]+ (\S+) HTTP\//.exec(first.toString('latin1'))?.[1] ?? '';
      opened.push(path);
      if (refused.has(path)) return client.destroy();
      const upstream = net.connect(target.port, target.host);
      open.set(client, { path, upstream });
      const end = () => {
        open.delete(client);
        client.destroy();
        upstream.destroy();
      };
      upstream.on('error', end).on('close', end);
      client.on('close', end);
      upstream.write(first);
      client.pipe(upstream);
      upstream.pipe(client);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    opened,
    cut: (path) => {
      for (const [client, connection] of open) {
        if (connection.path !== path) continue;
        client.destroy();
        connection.upstream.destroy();
      }
    },
    refuse: (path) => void refused.add(path),
    close: () => {
      for (const [client, { upstream }] of open) {
        client.destroy();
        upstream.destroy();
      }
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
