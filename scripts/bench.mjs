// `npm run bench`: install and build like `npm start`, then run bench/run.ts and print figures.
import { checkNodeVersion, ensureBuild, ensureDebianPackages, ensureNodeModules, run } from './lib/setup.mjs';
import { RUNTIME_PACKAGES } from './system-packages.mjs';

checkNodeVersion();
ensureDebianPackages(RUNTIME_PACKAGES);
ensureNodeModules();
ensureBuild();
run('npx', ['tsx', 'bench/run.ts']);
