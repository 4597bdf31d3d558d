import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

// The web app lives in src/web and builds into dist/web, which the server serves. In development
// (`npm run dev`) Vite proxies every server path to the API on port 3000, so the app always talks
// to its own origin, as in production.
const api = 'http://localhost:3000';

/** What the browser downloads as text; source maps are left as they are (only developer tools read them). */
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|webmanifest)$/;

/**
 * A brotli (.br) and a gzip (.gz) copy beside each text file of the build, made once here at the
 * strongest settings, so the server (http/spa.ts, @fastify/static's preCompressed) sends the
 * smallest form a browser accepts without compressing anything per request.
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
        if (!entry.isFile() || !COMPRESSIBLE.test(entry.name) || file.includes(`${path.sep}.vite${path.sep}`)) continue;
        const content = fs.readFileSync(file);
        const brotli = zlib.brotliCompressSync(content, {
          params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length },
        });
        const gzip = zlib.gzipSync(content, { level: 9 });
        // A copy no smaller than the file is not worth sending: the server then sends the file.
        if (brotli.length < content.length) fs.writeFileSync(`${file}.br`, brotli);
        if (gzip.length < content.length) fs.writeFileSync(`${file}.gz`, gzip);
      }
    },
  };
}

export default defineConfig({
  root: 'src/web',
  publicDir: 'public',
  plugins: [react(), tailwindcss(), precompress()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    manifest: true,
    sourcemap: true,
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
});
