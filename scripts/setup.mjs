// `npm run setup`: only the installation part of `npm start` (used by `npm run dev`).
import { ensureDebianPackages, ensureNodeModules } from './lib/setup.mjs';
import { ensureRuntime } from './lib/runtime.mjs';
import { RUNTIME_PACKAGES } from './system-packages.mjs';

await ensureRuntime();
ensureDebianPackages(RUNTIME_PACKAGES);
ensureNodeModules();
