// `npm start`: install what is missing, build if the sources changed, then serve. The server
// applies database migrations itself at start.
import { spawn } from 'node:child_process';
import { ensureBuild, ensureDebianPackages, ensureNodeModules, log, ROOT } from './lib/setup.mjs';
import { ensureRuntime } from './lib/runtime.mjs';
import { RUNTIME_PACKAGES } from './system-packages.mjs';

await ensureRuntime();
ensureDebianPackages(RUNTIME_PACKAGES);
ensureNodeModules();
ensureBuild();

log(`Starting Parley on http://localhost:${process.env.PORT ?? 3000}`);
// V8's young generation at Node 20's size (16 MB a semi-space): Node 24's V8 lets it grow larger, and
// the server's memory on long transcriptions grew with it (docs/deployment.md).
const server = spawn(process.execPath, ['--enable-source-maps', '--max-semi-space-size=16', 'dist/server/main.js'], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { NODE_ENV: 'production', ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
