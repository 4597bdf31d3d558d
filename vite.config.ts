import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { firstDownloads } from './scripts/lib/first-downloads.ts';
import { LANDING_PAGE_FILE } from './src/shared/contracts/web-build.ts';

// The web app lives in src/web and builds into dist/web, which the server serves. In development
// (`npm run dev`) Vite proxies every server path to the API on port 3000, so the app always talks
// to its own origin, as in production.
const api = 'http://localhost:3000';

/** What the browser downloads as text; source maps are left as they are (only developer tools read them). */
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|webmanifest)$/;

/** A brotli (.br) and a gzip (.gz) copy beside a text file, at the strongest settings; none where it would be no smaller. */
function compressBeside(file: string): void {
  const content = fs.readFileSync(file);
  const brotli = zlib.brotliCompressSync(content, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length },
  });
  const gzip = zlib.gzipSync(content, { level: 9 });
  // A copy no smaller than the file is not worth sending: the server then sends the file.
  if (brotli.length < content.length) fs.writeFileSync(`${file}.br`, brotli);
  if (gzip.length < content.length) fs.writeFileSync(`${file}.gz`, gzip);
}

/**
 * Compressed copies of each text file of the build, made once here, so the server (http/spa.ts,
 * @fastify/static's preCompressed) sends the smallest form a browser accepts without compressing
 * anything per request.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'parley-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const entry of fs.readdirSync(outDir, { recursive: true, withFileTypes: true })) {
        const file = path.join(entry.parentPath, entry.name);
        if (entry.isFile() && COMPRESSIBLE.test(entry.name) && !file.includes(`${path.sep}.vite${path.sep}`)) compressBeside(file);
      }
    },
  };
}

const REPO = path.dirname(fileURLToPath(import.meta.url));
const WEB_OUT = path.join(REPO, 'dist/web');
const PRERENDER_OUT = path.join(REPO, 'dist/prerender');
/** The script the static landing page runs: the site menu's (features/marketing/site-menu.ts), an entry of the web build. */
const SITE_MENU_ENTRY = 'features/marketing/site-menu.ts';

/** What src/web/prerender.tsx exports, as the server build of the app has it. */
type PrerenderModule = { renderPage: (url: string) => Promise<string> };

/**
 * The landing page as static HTML, with no React: the server build of the app (`vite build --ssr
 * prerender.tsx`, after the web build) renders `/` exactly as the app does, and this writes it into
 * the web build's index.html in place of the app's scripts. A first visit downloads the page and the
 * site menu's few hundred bytes of script; its links lead into the app. The app keeps its own
 * landing route, for a person it sends to `/` (after signing out).
 */
function prerenderLanding(): Plugin {
  return {
    name: 'parley-prerender-landing',
    apply: (_config, env) => env.command === 'build' && env.isSsrBuild === true,
    async closeBundle() {
      const { renderPage } = (await import(pathToFileURL(path.join(PRERENDER_OUT, 'prerender.js')).href)) as PrerenderModule;
      const manifest = JSON.parse(fs.readFileSync(path.join(WEB_OUT, '.vite/manifest.json'), 'utf8')) as Record<string, { file: string }>;
      const menuScript = manifest[SITE_MENU_ENTRY]?.file;
      if (!menuScript) throw new Error(`the web build has no ${SITE_MENU_ENTRY} entry: build the web app first`);
      const page = await renderPage('/');
      let html = fs.readFileSync(path.join(WEB_OUT, 'index.html'), 'utf8');
      // Each edit must find its place: a changed index.html fails the build instead of shipping a broken page.
      const edit = (pattern: RegExp | string, replacement: string) => {
        const next = html.replace(pattern, replacement);
        if (next === html) throw new Error(`prerendering the landing page: index.html has no ${String(pattern)}`);
        html = next;
      };
      edit(/\s*<!--[^>]*-->\s*<script defer src="\/app-config\.js"><\/script>/, '');
      edit(/<script type="module"[^>]*><\/script>/, `<script type="module" crossorigin src="/${menuScript}"></script>`);
      html = html.replace(/\s*<link rel="modulepreload"[^>]*>/g, '');
      edit('<div id="root"></div>', `<div id="root">${page}</div>`);
      const file = path.join(WEB_OUT, LANDING_PAGE_FILE);
      fs.writeFileSync(file, html);
      compressBeside(file);
    },
  };
}

/**
 * The signed-in app's first page: the layout of the pages that read the API, the guarded shell and the
 * dashboard. Split as rolldown splits by default, they came in 60 files, most about 1 KiB; a phone's
 * browser opens six connections to a server without HTTP/2, so each wave of them waited out several
 * round trips (Lighthouse, slow 4G: /dashboard LCP 4.5 s). What they import beyond the entry is one
 * chunk (CHUNK_GROUPS), read from the module graph (scripts/lib/first-downloads.ts), so the chunk
 * follows the code; except what the pages outside the app layout (router.tsx) share with it, so
 * they do not download the app.
 */
const FIRST_DOWNLOADS = firstDownloads(path.join(REPO, 'src/web'), {
  pagesDir: 'app/',
  together: ['app/app-layout.tsx', 'app/routes/app-shell.tsx', 'app/routes/dashboard.tsx'],
  apart: ['landing', 'pricing', 'blog', 'help', 'guides', 'about', 'careers', 'contact', 'privacy', 'terms', 'auth', 'reset-password', 'not-found'].map(
    (page) => `app/routes/${page}.ts`,
  ),
});

/**
 * The signed-in app's first page in one chunk, and what it shares with the public pages and the
 * on-demand modules (the auth client, the toasts' host) in another; the other pages split as rolldown
 * splits them. No group takes a module's dependencies with it (includeDependenciesRecursively): they
 * would carry React and the entry's modules out of the entry, and every page with them. Groups move
 * modules, never copy them, so a module's state stays one.
 */
const CHUNK_GROUPS = [
  { name: 'signed-in', test: (id: string) => FIRST_DOWNLOADS.together.has(id) },
  { name: 'app-common', test: (id: string) => FIRST_DOWNLOADS.shared.has(id) },
];

export default defineConfig(({ isSsrBuild }) => ({
  root: 'src/web',
  publicDir: isSsrBuild ? false : 'public',
  plugins: [react(), tailwindcss(), ...(isSsrBuild ? [prerenderLanding()] : [precompress(), FIRST_DOWNLOADS.plugin])],
  build: isSsrBuild
    ? { outDir: PRERENDER_OUT, emptyOutDir: true }
    : {
        outDir: WEB_OUT,
        emptyOutDir: true,
        manifest: true,
        sourcemap: true,
        rolldownOptions: {
          input: { index: path.join(REPO, 'src/web/index.html'), 'site-menu': path.join(REPO, 'src/web', SITE_MENU_ENTRY) },
          output: { codeSplitting: { includeDependenciesRecursively: false, groups: CHUNK_GROUPS } },
        },
      },
  server: {
    port: 5173,
    proxy: {
      '/auth': api,
      '/api': api,
      '/uploads': api,
      '/app-config.js': api,
      '/realtime': { target: api, ws: true },
    },
  },
}));
