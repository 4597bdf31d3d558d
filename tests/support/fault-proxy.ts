import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type ProxiedRequest = { method: string; url: string; at: number };

/**
 * A real HTTP proxy in front of a test server that records every request and can answer chosen
 * requests itself (e.g. a 503 from a failing gateway), for the client's retry and init behaviour.
 */
export async function startFaultProxy(target: string): Promise<{
  url: string;
  requests: ProxiedRequest[];
  failNext: (match: (r: ProxiedRequest) => boolean, times: number, status: number) => void;
  close: () => Promise<void>;
}> {
  const requests: ProxiedRequest[] = [];
  let fault: { match: (r: ProxiedRequest) => boolean; remaining: number; status: number } | undefined;
  const server = http.createServer((req, res) => {
    const record = { method: req.method ?? 'GET', url: req.url ?? '/', at: Date.now() };
    requests.push(record);
    if (fault && fault.remaining > 0 && fault.match(record)) {
      fault.remaining -= 1;
      req.resume();
      res.writeHead(fault.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'upstream unavailable' }));
      return;
    }
    const upstream = http.request(new URL(record.url, target), { method: record.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext: (match, times, status) => {
      fault = { match, remaining: times, status };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
