// Installs what the project needs on a fresh machine: npm packages from the lockfile and, for the
// commands that need them, Debian packages through apt-get (as root). Plain Node, no dependencies,
// because it runs before node_modules exists.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CACHE_DIR, linkRuntime, nodeHeadersConfig } from './runtime.mjs';

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

export function log(message) {
  console.log(`\x1b[36m[parley]\x1b[0m ${message}`);
}

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: ROOT, ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    const error = new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
    error.exitCode = result.status ?? 1;
    throw error;
  }
}

function lockfileHash() {
  const lock = path.join(ROOT, 'package-lock.json');
  const pkg = path.join(ROOT, 'package.json');
  return crypto
    .createHash('sha256')
    .update(fs.readFileSync(pkg))
    .update(fs.existsSync(lock) ? fs.readFileSync(lock) : '')
    .digest('hex');
}

/**
 * What node_modules was installed from: the lockfile, and the Node ABI its native addons were built
 * for (better-sqlite3 loads only in the Node it was built for).
 */
const installStamp = () => `${lockfileHash()} node-abi-${process.versions.modules}-${process.platform}-${process.arch}`;

/**
 * Installs npm packages when node_modules is missing or was installed from another lockfile, and
 * rebuilds their native addons when it was installed under another Node.
 * `npm install` rather than `npm ci`: npm 11 leaves other platforms' optional packages out of the
 * lockfile and `npm ci` then refuses it; `npm install` still installs exactly the locked versions.
 */
export function ensureNodeModules() {
  const stamp = path.join(ROOT, 'node_modules', '.parley-install-stamp');
  const previous = fs.existsSync(stamp) ? fs.readFileSync(stamp, 'utf8') : null;
  const wanted = installStamp();
  if (previous !== wanted) {
    // onnxruntime-node (brought by the package that ships the Silero VAD model) would download binaries
    // from outside the npm registry at install; sherpa-onnx brings its own runtime, so it is skipped
    // here as well as by package.json's allowScripts (which older npm versions ignore).
    // The running Node's headers, over any nodedir npm config names (npm run passes its own on, /usr here).
    const env = { ...process.env, ...nodeHeadersConfig(), ONNXRUNTIME_NODE_INSTALL: 'skip', npm_config_better_sqlite3_local_prebuilds: PREBUILDS_DIR };
    // npm install leaves the packages it already has as they are, native addons built for another Node included.
    const otherNode = fs.existsSync(path.join(ROOT, 'node_modules')) && previous?.split(' ')[1] !== wanted.split(' ')[1];
    log('Installing npm packages (npm install)…');
    run('npm', ['install', '--no-audit', '--no-fund'], { env });
    if (otherNode) {
      log(`Rebuilding native addons for Node.js ${process.versions.node} (npm rebuild)…`);
      run('npm', ['rebuild'], { env });
    }
    keepBetterSqliteBuild();
    fs.writeFileSync(stamp, wanted);
  }
  linkRuntime();
}

/**
 * better-sqlite3's install downloads a prebuilt binary from GitHub and, where it cannot (here: only
 * the npm registry answers), compiles SQLite from source: a minute of CPU on every fresh clone. Its
 * installer (prebuild-install) looks in a local folder first, for a file named as the download would
 * be: after a compile the binary is kept there, under its version, Node ABI, platform and
 * architecture, so the next install of that version on this machine unpacks it instead. A damaged
 * file there makes prebuild-install fail and the install compile again, as without it.
 */
const PREBUILDS_DIR = path.join(CACHE_DIR, 'prebuilds');

function keepBetterSqliteBuild() {
  const dir = path.join(ROOT, 'node_modules', 'better-sqlite3');
  const binary = path.join(dir, 'build', 'Release', 'better_sqlite3.node');
  if (!fs.existsSync(binary)) return;
  const { version } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  // prebuild-install's name for it: {name}-v{version}-{runtime}-v{abi}-{platform}{libc}-{arch}.tar.gz (glibc: no libc part).
  const file = path.join(PREBUILDS_DIR, `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`);
  if (fs.existsSync(file)) return;
  // Only a binary that opens a database is kept.
  const probe = spawnSync(process.execPath, ['-e', "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()"], { cwd: ROOT });
  if (probe.status !== 0) return;
  fs.mkdirSync(PREBUILDS_DIR, { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  const packed = spawnSync('tar', ['-czf', partial, '-C', dir, 'build/Release/better_sqlite3.node']);
  if (packed.status === 0) fs.renameSync(partial, file);
  else fs.rmSync(partial, { force: true });
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;
const hasCommand = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

/**
 * Makes sure each Debian package is installed (checked by the file it provides). Installs the
 * missing ones with apt-get when running as root; otherwise stops with the command to run.
 */
export function ensureDebianPackages(packages) {
  const missing = packages.filter((p) => !fs.existsSync(p.provides));
  if (missing.length === 0) return;
  const names = missing.map((p) => p.name);
  if (!isRoot() || !hasCommand('apt-get')) {
    console.error(
      `Parley needs these system packages: ${names.join(', ')} (for ${missing.map((p) => p.why).join('; ')}).\n` +
        `Install them with:  sudo apt-get install -y ${names.join(' ')}`,
    );
    process.exit(1);
  }
  log(`Installing Debian packages: ${names.join(', ')}…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-qq'], { env });
  run('apt-get', ['install', '-y', '-qq', ...names], { env });
}

/** Hash of everything the build reads, so an unchanged tree is not rebuilt on every start. */
export function sourceHash() {
  const hash = crypto.createHash('sha256');
  const inputs = ['package.json', 'package-lock.json', 'vite.config.ts', 'tsconfig.base.json', 'tsconfig.web.json', 'scripts/build-server.mjs'];
  for (const file of inputs) {
    const full = path.join(ROOT, file);
    if (fs.existsSync(full)) hash.update(file).update(fs.readFileSync(full));
  }
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else hash.update(path.relative(ROOT, full)).update(fs.readFileSync(full));
    }
  };
  walk(path.join(ROOT, 'src'));
  return hash.digest('hex');
}

const BUILD_STAMP = path.join(ROOT, 'dist', '.build-stamp');

/** Whether dist/ holds a complete build of the current sources, and the stamp a new build gets. */
export function buildStatus() {
  const wanted = sourceHash();
  const complete = fs.existsSync(path.join(ROOT, 'dist/web/index.html')) && fs.existsSync(path.join(ROOT, 'dist/server/main.js'));
  return { current: complete && fs.existsSync(BUILD_STAMP) && fs.readFileSync(BUILD_STAMP, 'utf8') === wanted, wanted };
}

/** Records that dist/ was built from the sources whose hash is `wanted`. */
export function markBuilt(wanted) {
  fs.writeFileSync(BUILD_STAMP, wanted);
}

/** Builds the web app and the server unless dist/ already matches the sources. */
export function ensureBuild() {
  const { current, wanted } = buildStatus();
  if (current) return;
  log('Building the web app and the server…');
  run('npm', ['run', '--silent', 'build']);
  markBuilt(wanted);
}
