import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The web app lives in src/web and builds into dist/web, which the server serves. In development
// (`npm run dev`) Vite proxies every server path to the API on port 3000, so the app always talks
// to its own origin, as in production.
const api = 'http://localhost:3000';

export default defineConfig({
  root: 'src/web',
  publicDir: 'public',
  plugins: [react(), tailwindcss()],
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
