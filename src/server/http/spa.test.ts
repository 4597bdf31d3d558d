import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApiPath, registerSpa } from './spa.ts';

describe('isApiPath', () => {
  it('claims the server prefixes', () => {
    for (const url of ['/api/v1/meetings', '/auth/v1/token?grant_type=password', '/uploads/abc', '/realtime', '/realtime/x', '/app-config.js']) {
      expect(isApiPath(url), url).toBe(true);
    }
  });
  it('leaves the web app its pages, including /auth', () => {
    for (const url of ['/', '/auth', '/auth?tab=signup', '/authors', '/apiary', '/realtimes', '/dashboard', '/app-config.json']) {
      expect(isApiPath(url), url).toBe(false);
    }
  });
});

describe('the built web app, with the compressed copies the build writes beside its files', () => {
  const script = 'console.log("the landing page");\n'.repeat(50);
  const page = `<!doctype html><title>Parley</title>${'<p>the app</p>'.repeat(20)}`;
  const landing = `<!doctype html><title>Parley</title>${'<p>the static landing page</p>'.repeat(20)}`;
  let webDir: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-spa-'));
    fs.mkdirSync(path.join(webDir, 'assets'));
    const write = (name: string, content: string, compressed = true) => {
      fs.writeFileSync(path.join(webDir, name), content);
      if (!compressed) return;
      fs.writeFileSync(path.join(webDir, `${name}.br`), zlib.brotliCompressSync(content));
      fs.writeFileSync(path.join(webDir, `${name}.gz`), zlib.gzipSync(content));
    };
    write('index.html', page);
    write('landing.html', landing);
    write('assets/landing-abc123.js', script);
    write('assets/tiny-abc123.js', 'export {};', false);
    app = Fastify();
    await registerSpa(app, webDir);
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

  /** `url` answers `html` as a page: brotli to a browser that accepts it, revalidated on every visit. */
  const expectPage = async (url: string, html: string) => {
    const res = await get(url, 'br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(html);
  };

  it('sends a browser that accepts brotli the brotli copy, as JavaScript, cached for a year', async () => {
    const res = await get('/assets/landing-abc123.js', 'gzip, deflate, br, zstd');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(res.headers.vary)).toContain('accept-encoding');
    expect(res.rawPayload.length).toBeLessThan(script.length / 5);
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });

  it('sends gzip to a client that accepts only gzip, and the file itself to one that accepts neither', async () => {
    const gzip = await get('/assets/landing-abc123.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(script);

    const plain = await get('/assets/landing-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('sends a file that has no compressed copy as it is', async () => {
    const res = await get('/assets/tiny-abc123.js', 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe('export {};');
  });

  it('answers a page of the app with index.html, compressed and revalidated on every visit', async () => {
    await expectPage('/dashboard', page);
  });

  it('answers / with the static landing page the build made, compressed and revalidated', async () => {
    await expectPage('/', landing);
    expect((await get('/?ref=newsletter')).body).toBe(landing);
  });
});

describe('a web build without a static landing page', () => {
  it('answers / with the app', async () => {
    const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-spa-'));
    const app = Fastify();
    try {
      fs.writeFileSync(path.join(webDir, 'index.html'), '<p>the app</p>');
      await registerSpa(app, webDir);
      expect((await app.inject({ method: 'GET', url: '/' })).body).toBe('<p>the app</p>');
    } finally {
      await app.close();
      fs.rmSync(webDir, { recursive: true, force: true });
    }
  });
});
