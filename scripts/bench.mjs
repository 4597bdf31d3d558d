// `npm run bench`: install and build like `npm start`, then run bench/run.ts and print figures.
import { ensureBuild, ensureDebianPackages, ensureNodeModules, run } from './lib/setup.mjs';
import { ensureRuntime } from './lib/runtime.mjs';
import { RUNTIME_PACKAGES } from './system-packages.mjs';

await ensureRuntime();
ensureDebianPackages(RUNTIME_PACKAGES);
ensureNodeModules();
ensureBuild();
run('npx', ['tsx', 'bench/run.ts']);
