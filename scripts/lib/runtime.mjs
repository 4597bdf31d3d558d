// The Node.js that Parley runs on (docs/decisions/005-node-runtime.md). package.json's `engines` says
// which versions it runs on; `npm start`, `npm test`, `npm run setup` and `npm run bench` run under
// the Node that started them when it is one of those, and otherwise under Node NODE_VERSION, taken
// once from the npm registry (the official build, published there as node-<platform>-<arch>, the
// packages behind npm's `node` package) into the cache and started in their place. Plain Node, no
// dependencies: it runs before node_modules exists, under whatever Node the machine has.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The Node.js fetched when the machine's is older than `engines` allows; CI runs every test on it. */
export const NODE_VERSION = '24.22.3';

export const CACHE_DIR = path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'parley');
const RUNTIMES_DIR = path.join(CACHE_DIR, 'node');
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

/** The lowest [major, minor] package.json's engines.node allows: it is written `>=MAJOR` or `>=MAJOR.MINOR`. */
function lowestSupported() {
  const range = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).engines.node;
  const match = /^>=\s*(\d+)(?:\.(\d+))?$/.exec(range);
  if (!match) throw new Error(`scripts/lib/runtime.mjs reads engines.node as ">=MAJOR[.MINOR]", not "${range}"`);
  return { range, major: Number(match[1]), minor: Number(match[2] ?? 0) };
}

function supports(version) {
  const { major, minor } = lowestSupported();
  const [have, haveMinor] = version.split('.').map(Number);
  return have > major || (have === major && haveMinor >= minor);
}

/** Whether `node` is the cached runtime (the symlink npm scripts reach it through resolves to it). */
const isCachedRuntime = (node) => node.startsWith(`${RUNTIMES_DIR}${path.sep}`);

/**
 * Continues this script under a Node that `engines` allows: returns at once when this one is, and
 * otherwise runs the same script under the cached Node NODE_VERSION (fetching it first) with that
 * Node first on PATH, so npm, npx and every tool they start use it too, and exits with its status.
 */
export async function ensureRuntime() {
  if (supports(process.versions.node)) return;
  const { range } = lowestSupported();
  if (process.env.PARLEY_RUNTIME === NODE_VERSION) {
    console.error(`The cached Node.js ${NODE_VERSION} reports ${process.versions.node}, outside Parley's ${range}.`);
    process.exit(1);
  }
  const node = fetchRuntime(range);
  const home = path.dirname(path.dirname(node));
  console.log(`\x1b[36m[parley]\x1b[0m Node.js ${process.versions.node} is outside Parley's ${range}: running on Node.js ${NODE_VERSION} (${home}).`);
  const child = spawn(node, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: {
      ...process.env,
      PARLEY_RUNTIME: NODE_VERSION,
      PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ''}`,
    },
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  const code = await new Promise((resolve) => child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))));
  process.exit(code);
}

/** The path of the cached Node NODE_VERSION's binary, fetched from the npm registry when missing. */
function fetchRuntime(range) {
  const name = `node-${process.platform}-${process.arch}`;
  const home = path.join(RUNTIMES_DIR, `${NODE_VERSION}-${process.platform}-${process.arch}`);
  const node = path.join(home, 'bin', 'node');
  if (reportsVersion(node)) return node;
  console.log(`\x1b[36m[parley]\x1b[0m Fetching Node.js ${NODE_VERSION} (${name} from the npm registry) into ${home}…`);
  fs.mkdirSync(RUNTIMES_DIR, { recursive: true });
  // Unpacked beside its place and renamed there, so a fetch cut short never leaves a half runtime.
  const work = fs.mkdtempSync(path.join(RUNTIMES_DIR, '.fetch-'));
  try {
    // npm pack checks the tarball against the registry's integrity and honours the user's npm config (a mirror, a proxy).
    const packed = spawnSync('npm', ['pack', `${name}@${NODE_VERSION}`, '--pack-destination', work, '--silent'], {
      cwd: work,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const tarball = fs.readdirSync(work).find((file) => file.endsWith('.tgz'));
    if (packed.status !== 0 || !tarball) {
      console.error(
        `Parley runs on Node.js ${range}; this is ${process.versions.node}, and ${name}@${NODE_VERSION} could not be fetched from the npm registry. Install Node.js ${range.replace('>=', '')} or newer.`,
      );
      process.exit(1);
    }
    const unpacked = spawnSync('tar', ['-xzf', tarball], { cwd: work, stdio: 'inherit' });
    const fetched = path.join(work, 'package');
    if (unpacked.status !== 0 || !reportsVersion(path.join(fetched, 'bin', 'node'))) {
      console.error(`${name}@${NODE_VERSION} from the npm registry did not unpack to a working Node.js ${NODE_VERSION}.`);
      process.exit(1);
    }
    // Another install on this machine may have put it in place meanwhile.
    if (!reportsVersion(node)) {
      fs.rmSync(home, { recursive: true, force: true });
      fs.renameSync(fetched, home);
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return node;
}

function reportsVersion(node) {
  if (!fs.existsSync(node)) return false;
  const result = spawnSync(node, ['--version'], { encoding: 'utf8' });
  return result.status === 0 && result.stdout.trim() === `v${NODE_VERSION}`;
}

/**
 * npm config for installs: node-gyp compiles native addons (better-sqlite3, when no prebuilt binary
 * is at hand) against the headers of the Node npm config's nodedir names, or else downloads the
 * running Node's from nodejs.org. Official builds, the fetched one among them, carry theirs beside
 * the binary; another Node's would build an addon the running one cannot load.
 */
export function nodeHeadersConfig() {
  const home = path.dirname(path.dirname(process.execPath));
  return fs.existsSync(path.join(home, 'include', 'node', 'common.gypi')) ? { npm_config_nodedir: home } : {};
}

/**
 * npm puts node_modules/.bin first on PATH for `npm run` and `npx`: a `node` there makes every other
 * script (`npm run dev`, `npm run db:migrate`, `npx vitest`) run on the Node node_modules was
 * installed for, whose native addons (better-sqlite3) load in no other. It is linked while running on
 * the cached runtime, and removed while running on the machine's own.
 */
export function linkRuntime() {
  const link = path.join(ROOT, 'node_modules', '.bin', 'node');
  let target = null;
  try {
    target = fs.readlinkSync(link);
  } catch {
    // none yet
  }
  if (isCachedRuntime(process.execPath)) {
    if (target === process.execPath) return;
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.rmSync(link, { force: true });
    fs.symlinkSync(process.execPath, link);
  } else if (target && isCachedRuntime(target)) {
    fs.rmSync(link, { force: true });
  }
}
