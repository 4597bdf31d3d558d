// `npm run cluster`: Parley as several processes on one machine, for trying it out and for the scale
// bench (docs/deployment.md): a Redis of its own (append-only file on), PostgreSQL (a database
// created when missing), CLUSTER_WEB web and CLUSTER_WORKERS worker processes sharing one database,
// Redis, secret key and data folder, behind HAProxy (round robin, checked on /readyz). Plain Node:
// it installs what is missing before anything else, like `npm start`.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { haproxyConfig } from './lib/haproxy-config.mjs';
import { ensureBuild, ensureDebianPackages, ensureNodeModules, log, ROOT } from './lib/setup.mjs';
import { ensureRuntime } from './lib/runtime.mjs';
import { CLUSTER_PACKAGES, RUNTIME_PACKAGES } from './system-packages.mjs';

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/parley_cluster';

/** A free TCP port on loopback (the kernel's pick). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const answers = (port) =>
  new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => socket.end(() => resolve(true)));
    socket.once('error', () => resolve(false));
  });

const exited = (child) => child.exitCode !== null || child.signalCode !== null;
const waitExit = (child) => (exited(child) ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve())));

/** Creates the database the URL names when it is missing (connecting to the server's `postgres` database to do so). */
async function ensureDatabase(url) {
  const require = createRequire(path.join(ROOT, 'package.json'));
  const pg = require('pg');
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`CLUSTER_DATABASE_URL: database name ${JSON.stringify(name)}: letters, digits and _ only`);
  const adminUrl = new URL(url);
  adminUrl.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(`PostgreSQL at ${adminUrl.host} does not answer (${error.message}): start it, or set CLUSTER_DATABASE_URL`, { cause: error });
  }
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      log(`Creating the database ${name}…`);
      await admin.query(`create database "${name}"`);
    }
  } finally {
    await admin.end();
  }
}

/** The cluster's secret key: PARLEY_SECRET_KEY, or one generated once into its folder (every process seals with it). */
function secretKey(dir) {
  if (process.env.PARLEY_SECRET_KEY) return process.env.PARLEY_SECRET_KEY;
  const file = path.join(dir, 'secret-key');
  if (!fs.existsSync(file)) fs.writeFileSync(file, crypto.randomBytes(32).toString('base64'), { mode: 0o600 });
  return fs.readFileSync(file, 'utf8').trim();
}

/** Settings a process takes from the environment as they are: the blob store's, and the engines'. */
const PASSED_THROUGH =
  /^(STORAGE_URL|S3_[A-Z_]+|TRANSCRIBE_[A-Z_]+|NOTES_[A-Z_]+|ASK_[A-Z_]+|SMTP_[A-Z_]+|AUTH_[A-Z_]+|LIVE_[A-Z_]+|PARLEY_AUTO_MODELS|PARLEY_MODELS_BASE_URL|UPLOAD_[A-Z_]+|STORAGE_QUOTA_GB|MAX_RECORDING_HOURS)$/;

/**
 * Starts the cluster; resolves once HAProxy answers and every web process is ready. Options (each
 * also read from the environment by `npm run cluster`): web, workers, port (0: a free one), dir (its
 * Redis, logs and shared data), databaseUrl, logLevel, env (more settings for every process).
 */
export async function startCluster(options = {}) {
  const webCount = options.web ?? 2;
  const workerCount = options.workers ?? 2;
  const dir = path.resolve(options.dir ?? path.join(ROOT, 'data', 'cluster'));
  const databaseUrl = options.databaseUrl ?? DEFAULT_DATABASE_URL;
  const print = options.quiet ? () => {} : log;
  for (const sub of ['redis', 'data', 'logs']) fs.mkdirSync(path.join(dir, sub), { recursive: true, mode: 0o700 });
  await ensureDatabase(databaseUrl);

  const children = [];
  let stopping = false;
  const onUnexpectedExit = options.onUnexpectedExit ?? (() => {});

  const logFile = (name) => fs.openSync(path.join(dir, 'logs', `${name}.log`), 'a');

  // Redis, keeping its data in an append-only file so counts (a sign-in brute force's) survive a restart.
  const redisPort = await freePort();
  const redis = { name: 'redis', port: redisPort, child: undefined };
  const startRedis = async () => {
    const out = logFile('redis');
    redis.child = spawn(
      'redis-server',
      ['--port', String(redisPort), '--bind', '127.0.0.1', '--dir', path.join(dir, 'redis'), '--appendonly', 'yes', '--appendfsync', 'everysec', '--save', ''],
      { stdio: ['ignore', out, out] },
    );
    fs.closeSync(out);
    for (let i = 0; i < 400 && !(await answers(redisPort)); i++) {
      if (exited(redis.child)) throw new Error(`redis-server exited (${path.join(dir, 'logs', 'redis.log')})`);
      await sleep(25);
    }
    redis.pid = redis.child.pid;
  };
  await startRedis();
  const redisUrl = `redis://127.0.0.1:${redisPort}`;

  const proxyPort = options.port || (await freePort());
  const url = `http://127.0.0.1:${proxyPort}`;
  const shared = {
    ...Object.fromEntries(Object.entries(process.env).filter(([key]) => PASSED_THROUGH.test(key))),
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    PARLEY_SECRET_KEY: secretKey(dir),
    DATA_DIR: path.join(dir, 'data'),
    PUBLIC_URL: options.publicUrl ?? url,
    TRUST_PROXY: 'true',
    LOG_LEVEL: options.logLevel ?? 'info',
    ...options.env,
  };

  const spawnServer = (proc) => {
    const out = logFile(proc.name);
    const env = { ...process.env, ...shared, ROLE: proc.role, HOST: '127.0.0.1', PORT: String(proc.port ?? 0) };
    // The V8 flags `npm start` gives the server (scripts/start.mjs).
    proc.child = spawn(process.execPath, ['--enable-source-maps', '--max-semi-space-size=16', 'dist/server/main.js'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', out, out],
    });
    fs.closeSync(out);
    proc.pid = proc.child.pid;
    proc.child.once('exit', (code, signal) => {
      if (!stopping && !proc.stopping) onUnexpectedExit(proc, code ?? signal);
    });
  };

  const waitReady = async (proc, timeoutMs = 120_000) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (exited(proc.child))
        throw new Error(`${proc.name} exited with ${proc.child.exitCode ?? proc.child.signalCode} (${path.join(dir, 'logs', `${proc.name}.log`)})`);
      try {
        if ((await fetch(`http://127.0.0.1:${proc.port}/readyz`)).ok) return;
      } catch {
        // not listening yet
      }
      await sleep(50);
    }
    throw new Error(`${proc.name} was not ready within ${timeoutMs / 1000} s`);
  };

  const webs = [];
  for (let i = 1; i <= webCount; i++) webs.push({ name: `web${i}`, role: 'web', port: await freePort() });
  const workers = [];
  for (let i = 1; i <= workerCount; i++) workers.push({ name: `worker${i}`, role: 'worker' });
  children.push(...webs, ...workers);

  let haproxy;
  const stop = async () => {
    stopping = true;
    // Web processes first (they stop taking requests and finish what they hold), then workers
    // (they hand unfinished jobs back), then the proxy and Redis.
    const term = async (procs) => {
      for (const proc of procs) if (proc.child && !exited(proc.child)) proc.child.kill('SIGTERM');
      await Promise.all(procs.map((proc) => (proc.child ? waitExit(proc.child) : undefined)));
    };
    await term(webs);
    await term(workers);
    await term([haproxy, redis].filter(Boolean));
  };

  try {
    // The first process alone migrates the database and makes the signing keys; the others then find them.
    spawnServer(webs[0]);
    await waitReady(webs[0]);
    for (const proc of [...webs.slice(1), ...workers]) spawnServer(proc);
    await Promise.all(webs.slice(1).map((proc) => waitReady(proc)));

    const configFile = path.join(dir, 'haproxy.cfg');
    const adminSocket = path.join(dir, 'haproxy.sock');
    fs.writeFileSync(
      configFile,
      haproxyConfig({ bind: `127.0.0.1:${proxyPort}`, webs: webs.map((w) => ({ name: w.name, host: '127.0.0.1', port: w.port })), adminSocket }),
    );
    const checked = spawnSync('haproxy', ['-c', '-q', '-f', configFile], { encoding: 'utf8' });
    if (checked.status !== 0) throw new Error(`haproxy refused ${configFile}: ${checked.stderr || checked.stdout}`);
    haproxy = { name: 'haproxy', port: proxyPort, adminSocket };
    const out = logFile('haproxy');
    // -db: in the foreground, stopped with this script.
    haproxy.child = spawn('haproxy', ['-db', '-f', configFile], { stdio: ['ignore', out, out] });
    fs.closeSync(out);
    haproxy.pid = haproxy.child.pid;
    const deadline = Date.now() + 20_000;
    while (
      !(await fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      if (exited(haproxy.child)) throw new Error(`haproxy exited (${path.join(dir, 'logs', 'haproxy.log')})`);
      if (Date.now() > deadline) throw new Error('haproxy did not answer within 20 s');
      await sleep(50);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  print(`Parley cluster: ${url} (logs and data in ${dir})`);

  return {
    url,
    dir,
    databaseUrl,
    redisUrl,
    webs,
    workers,
    redis,
    haproxy,
    /** Sends a signal (SIGKILL: a crash) to one process by name. */
    kill: (name, signal = 'SIGKILL') => {
      const proc = children.find((p) => p.name === name);
      if (!proc) throw new Error(`no process ${name}`);
      proc.stopping = true;
      proc.child.kill(signal);
      return waitExit(proc.child);
    },
    /** Starts a stopped web or worker process again (a web on its own port, so HAProxy finds it). */
    restart: async (name) => {
      const proc = children.find((p) => p.name === name);
      if (!proc) throw new Error(`no process ${name}`);
      if (!exited(proc.child)) throw new Error(`${name} is still running`);
      proc.stopping = false;
      spawnServer(proc);
      if (proc.role === 'web') await waitReady(proc);
    },
    /** Stops Redis (SIGTERM: it writes its append-only file) and starts it again on the same port and data. */
    restartRedis: async () => {
      redis.child.kill('SIGTERM');
      await waitExit(redis.child);
      await startRedis();
    },
    stop,
  };
}

function readCount(name, fallback) {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64) {
    console.error(`${name} must be a whole number from 1 to 64`);
    process.exit(1);
  }
  return n;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await ensureRuntime();
  ensureDebianPackages([...RUNTIME_PACKAGES, ...CLUSTER_PACKAGES]);
  ensureNodeModules();
  ensureBuild();
  const port = process.env.CLUSTER_PORT ? Number(process.env.CLUSTER_PORT) : 8080;
  let cluster;
  let stopping;
  const stopAll = async (code) => {
    stopping ??= (async () => {
      log('Stopping the cluster…');
      await cluster?.stop();
      process.exit(code);
    })();
    await stopping;
  };
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void stopAll(0));
  try {
    cluster = await startCluster({
      web: readCount('CLUSTER_WEB', 2),
      workers: readCount('CLUSTER_WORKERS', 2),
      port,
      dir: process.env.CLUSTER_DIR,
      databaseUrl: process.env.CLUSTER_DATABASE_URL || DEFAULT_DATABASE_URL,
      publicUrl: process.env.PUBLIC_URL,
      logLevel: process.env.LOG_LEVEL,
      onUnexpectedExit: (proc, how) => {
        log(`${proc.name} (pid ${proc.pid}) exited with ${how}: stopping the cluster`);
        void stopAll(1);
      },
    });
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
  const rows = [
    ['haproxy', cluster.haproxy.pid, `port ${cluster.haproxy.port}`],
    ['redis', cluster.redis.pid, `port ${cluster.redis.port} (append-only file in ${path.join(cluster.dir, 'redis')})`],
    ...cluster.webs.map((w) => [w.name, w.pid, `port ${w.port}`]),
    ...cluster.workers.map((w) => [w.name, w.pid, 'no HTTP']),
  ];
  for (const [name, pid, what] of rows) console.log(`  ${name.padEnd(8)} pid ${String(pid).padEnd(8)} ${what}`);
  log(`Open ${cluster.url} — Ctrl-C stops every process.`);
}
