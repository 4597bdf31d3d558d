// `npm run setup`: only the installation part of `npm start` (used by `npm run dev`).
import { checkNodeVersion, ensureDebianPackages, ensureNodeModules } from './lib/setup.mjs';
import { RUNTIME_PACKAGES } from './system-packages.mjs';

checkNodeVersion();
ensureDebianPackages(RUNTIME_PACKAGES);
ensureNodeModules();
