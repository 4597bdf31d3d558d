import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';

// The module is plain JavaScript (npm run cluster runs it before node_modules exists).
const { haproxyConfig, PROXY_MAX_BODY_BYTES } = (await import('./haproxy-config.mjs' as string)) as {
  haproxyConfig: (options: { bind: string; webs: { name: string; host: string; port: number }[]; checkIntervalMs?: number }) => string;
  PROXY_MAX_BODY_BYTES: number;
};

/** Two stand-in web processes behind Debian's HAProxy with the configuration `npm run cluster` writes. */
type Web = { name: string; server: http.Server; ready: boolean; port: number };

let dir: string;
let haproxy: ChildProcess;
let base: string;
const webs: Web[] = [];

async function startWeb(name: string): Promise<Web> {
  const web: Web = { name, server: http.createServer(), ready: true, port: 0 };
  web.server.on('request', (request, response) => {
    if (request.url === '/readyz') {
      response.writeHead(web.ready ? 200 : 503).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/plain' }).end(`${name} ${String(request.headers['x-forwarded-for'])}`);
  });
  const sockets = new WebSocketServer({ server: web.server });
  sockets.on('connection', (socket, request) => socket.send(`${name} ${request.url}`));
  await new Promise<void>((resolve) => web.server.listen(0, '127.0.0.1', resolve));
  web.port = (web.server.address() as AddressInfo).port;
  return web;
}

/** A free port for HAProxy to bind (the kernel's pick; HAProxy cannot be told port 0 and asked back). */
const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

const get = async (url: string) => {
  const response = await fetch(url);
  return { status: response.status, body: await response.text() };
};

beforeAll(async () => {
  webs.push(await startWeb('web1'), await startWeb('web2'));
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-haproxy-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const file = path.join(dir, 'haproxy.cfg');
  fs.writeFileSync(
    file,
    haproxyConfig({ bind: `127.0.0.1:${port}`, webs: webs.map((w) => ({ name: w.name, host: '127.0.0.1', port: w.port })), checkIntervalMs: 100 }),
  );
  const checked = spawnSync('haproxy', ['-c', '-q', '-f', file], { encoding: 'utf8' });
  if (checked.status !== 0) throw new Error(`haproxy -c refused the configuration: ${checked.stderr}`);
  haproxy = spawn('haproxy', ['-db', '-f', file], { stdio: 'ignore' });
  // Until it listens (the poll helper is for tests; this is their set-up).
  for (let i = 0; i < 200 && (await get(`${base}/`).catch(() => ({ status: 0 }))).status !== 200; i++) await new Promise((r) => setTimeout(r, 25));
});

afterAll(async () => {
  if (haproxy.exitCode === null) {
    haproxy.kill('SIGTERM');
    await new Promise((resolve) => haproxy.once('exit', resolve));
  }
  for (const web of webs) web.server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("npm run cluster's HAProxy", () => {
  it('sends requests to each web process in turn, with the client address forwarded', async () => {
    const answers = await Promise.all([0, 1, 2, 3].map(() => get(`${base}/api/v1/me`)));
    expect(answers.map((a) => a.body.split(' ')[0]).sort()).toEqual(['web1', 'web1', 'web2', 'web2']);
    expect(answers[0]!.body).toMatch(/ 127\.0\.0\.1$/);
    // An address the client claims is dropped: rate limits see the one HAProxy saw.
    const spoofed = await fetch(`${base}/`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(await spoofed.text()).toMatch(/ 127\.0\.0\.1$/);
  });

  it('passes WebSocket upgrades through (the realtime and live transcript sockets)', async () => {
    for (const url of ['/realtime', '/realtime/live']) {
      const socket = new WebSocket(`${base.replace('http', 'ws')}${url}`);
      const first = await new Promise<string>((resolve, reject) => {
        socket.once('message', (data: Buffer) => resolve(data.toString()));
        socket.once('error', reject);
      });
      expect(first).toMatch(new RegExp(`^web[12] ${url}$`));
      socket.close();
    }
  });

  it('refuses a body over its limit with 413 before any web process reads it', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(`${base}/uploads/x`, { method: 'PATCH', headers: { 'content-length': String(PROXY_MAX_BODY_BYTES + 1) } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.once('error', reject);
      request.flushHeaders();
    });
    expect(status).toBe(413);
  });

  it('stops sending to a process whose /readyz answers 503, and sends again once it is ready', async () => {
    webs[1]!.ready = false;
    await expect.poll(async () => (await Promise.all([0, 1, 2, 3].map(() => get(`${base}/`)))).every((a) => a.body.startsWith('web1 '))).toBe(true);
    webs[1]!.ready = true;
    await expect.poll(async () => (await Promise.all([0, 1, 2, 3].map(() => get(`${base}/`)))).some((a) => a.body.startsWith('web2 '))).toBe(true);
  });

  it("compose.yaml's proxy configuration is one HAProxy accepts", () => {
    const checked = spawnSync('haproxy', ['-c', '-f', 'deploy/haproxy.cfg'], { encoding: 'utf8' });
    expect(checked.stdout + checked.stderr).toContain('Configuration file is valid');
    expect(checked.status).toBe(0);
  });
});
