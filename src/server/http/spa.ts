import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { APP_CONFIG_GLOBAL, type PublicAppConfig } from '#shared/contracts/app-config.ts';
import { LANDING_PAGE_FILE } from '#shared/contracts/web-build.ts';

/** Prefixes the SPA never owns: unknown paths under them get a JSON 404, not index.html. */
const API_PREFIXES = ['/api/', '/auth/', '/uploads/', '/realtime', '/app-config.js'];

export function isApiPath(url: string): boolean {
  const pathname = url.split('?')[0] ?? url;
  // '/auth/' owns /auth/v1/…, but the page /auth itself belongs to the web app.
  return API_PREFIXES.some((p) => (p.endsWith('/') ? pathname.startsWith(p) : pathname === p || pathname.startsWith(`${p}/`)));
}

/** Serves /app-config.js: the public configuration the web app reads before it boots. */
export function registerAppConfig(app: FastifyInstance, getConfig: () => PublicAppConfig): void {
  app.get('/app-config.js', async (_request, reply) => {
    const body = `window.${APP_CONFIG_GLOBAL} = ${JSON.stringify(getConfig())};\n`;
    return reply.type('application/javascript; charset=utf-8').header('cache-control', 'no-cache').send(body);
  });
}

/**
 * Serves the built web app from `webDir` with a history fallback to index.html for client routes, and
 * `/` as the static landing page the build made.
 * Hashed assets are cached for a year; index.html is always revalidated so deploys show at once.
 * The build writes a brotli and a gzip copy beside each text file (vite.config.ts): a browser that
 * accepts one gets it (a third of the bytes on a phone's connection), any other client the file itself.
 */
export async function registerSpa(app: FastifyInstance, webDir: string): Promise<boolean> {
  const indexFile = path.join(webDir, 'index.html');
  if (!fs.existsSync(indexFile)) return false;
  await app.register(fastifyStatic, {
    root: webDir,
    wildcard: false,
    index: false,
    preCompressed: true,
    setHeaders: (reply, filePath) => {
      const isHashedAsset = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header('cache-control', isHashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  // The landing page, prerendered as static HTML by the build (vite.config.ts); the app's own if it was not.
  const landing = fs.existsSync(path.join(webDir, LANDING_PAGE_FILE)) ? LANDING_PAGE_FILE : 'index.html';
  app.get('/', (_request, reply) => sendPage(reply, landing));
  app.get('/*', (request, reply) => {
    const file = staticFileFor(webDir, request.url);
    if (file) return reply.sendFile(file);
    if (isApiPath(request.url)) return reply.callNotFound();
    return sendPage(reply, 'index.html');
  });
  return true;
}

/** An HTML page of the build, revalidated on every visit so a deploy shows at once. */
function sendPage(reply: FastifyReply, file: string): FastifyReply {
  return reply.header('cache-control', 'no-cache').sendFile(file);
}

function staticFileFor(webDir: string, url: string): string | undefined {
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.split('?')[0] ?? '/');
  } catch {
    return undefined; // malformed escapes never name a file
  }
  const relative = path
    .normalize(pathname)
    .replace(/^(\.\.(\/|\\|$))+/, '')
    .replace(/^[/\\]+/, '');
  if (relative === '' || relative === 'index.html') return undefined;
  const full = path.join(webDir, relative);
  if (!full.startsWith(webDir + path.sep)) return undefined;
  try {
    return fs.statSync(full).isFile() ? relative : undefined;
  } catch {
    return undefined; // not a file on disk: the SPA's router decides
  }
}
