// `npm run bench`: install and build like `npm start`, then run bench/run.ts and print figures.
import { ensureBuild, ensureDebianPackages, ensureNodeModules, run } from './lib/setup.mjs';
import { ensureRuntime } from './lib/runtime.mjs';
import { CLUSTER_PACKAGES, RUNTIME_PACKAGES } from './system-packages.mjs';

await ensureRuntime();
// The scale bench runs npm run cluster's processes (HAProxy, Redis).
ensureDebianPackages([...RUNTIME_PACKAGES, ...CLUSTER_PACKAGES]);
ensureNodeModules();
ensureBuild();
run('npx', ['tsx', 'bench/run.ts']);
