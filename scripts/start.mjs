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
const server = spawn(process.execPath, ['--enable-source-maps', 'dist/server/main.js'], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { NODE_ENV: 'production', ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
