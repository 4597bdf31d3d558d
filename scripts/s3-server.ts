// A real S3 server for the tests: OpenStack Swift with its s3api middleware, from Debian's packages.
// It checks signatures (a tampered presigned link is refused), speaks multipart uploads, ranged
// reads and listings as S3 does, and starts in a few seconds: a one-replica ring in a temporary
// folder, an account, a container and an object server and a proxy on free ports of 127.0.0.1, one
// fixed test user (tempauth), and one bucket. Everything goes when it stops.
//
//   node scripts/s3-server.ts      starts it, prints the settings Parley reads (STORAGE_URL, S3_*), and
//                                  stops it on Ctrl-C.
// npm test starts one for its run (scripts/test.mjs) and hands the settings to the tests as TEST_S3_*.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The Debian packages of the server, with the file that proves each is installed. */
export const S3_SERVER_PACKAGES = [
  { name: 'swift-proxy', provides: '/usr/bin/swift-proxy-server', why: 'the S3 server the tests run against (Swift s3api)' },
  { name: 'swift-account', provides: '/usr/bin/swift-account-server', why: 'the S3 server the tests run against (Swift s3api)' },
  { name: 'swift-container', provides: '/usr/bin/swift-container-server', why: 'the S3 server the tests run against (Swift s3api)' },
  { name: 'swift-object', provides: '/usr/bin/swift-object-server', why: 'the S3 server the tests run against (Swift s3api)' },
];

/** Debian's Python, which has Swift's modules (another python3 may come first on PATH). */
const PYTHON = '/usr/bin/python3';
const ACCESS_KEY = 'test:tester';
const SECRET_KEY = 'testing';
const REGION = 'us-east-1';
const BUCKET = 'parley-test';

/**
 * Swift reading our swift.conf rather than /etc/swift's (a module constant). `rings a c o`: one ring
 * per server kind naming its port (one device, one replica). `<kind> <port>`: that server on the
 * port, in this process (workers = 0).
 */
const LAUNCHER = `
import os, sys
import swift.common.utils as utils
folder = sys.argv[1]
utils.SWIFT_CONF_FILE = os.path.join(folder, 'swift.conf')
if sys.argv[2] == 'rings':
    from swift.common.ring import RingBuilder
    for kind, port in zip(('account', 'container', 'object'), sys.argv[3:]):
        builder = RingBuilder(2, 1, 1)
        builder.add_dev({'id': 0, 'region': 1, 'zone': 1, 'ip': '127.0.0.1', 'port': int(port), 'device': 'd1', 'weight': 1, 'meta': ''})
        builder.rebalance()
        builder.get_ring().save(os.path.join(folder, kind + '.ring.gz'))
else:
    import shutil, threading, time
    # Gone with the process that started it, however that one ended (a test worker killed outright).
    parent = os.getppid()
    def watch():
        while os.getppid() == parent:
            time.sleep(1)
        shutil.rmtree(folder, ignore_errors=True)
        os._exit(0)
    threading.Thread(target=watch, daemon=True).start()
    from swift.common.wsgi import run_wsgi
    sys.exit(run_wsgi(os.path.join(folder, sys.argv[2] + '-server.conf'), sys.argv[2] + '-server', verbose=bool(os.environ.get('S3_SERVER_VERBOSE'))))
`;

/** The ring names each server's port before it starts, so the port is found free first. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** Parley's settings for the server (what STORAGE_URL and S3_* would say), and how long it took to start. */
export type S3ServerSettings = {
  STORAGE_URL: string;
  S3_ENDPOINT: string;
  S3_REGION: string;
  S3_ACCESS_KEY_ID: string;
  S3_SECRET_ACCESS_KEY: string;
  S3_FORCE_PATH_STYLE: string;
};

export type S3Server = { settings: S3ServerSettings; seconds: number; stop: () => Promise<void> } | { skipped: string };
type Log = (line: string) => void;

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Installs the packages when they are missing and we may (root, apt-get); otherwise says why not. */
function ensurePackages(log: Log): string | undefined {
  const missing = S3_SERVER_PACKAGES.filter((p) => !fs.existsSync(p.provides));
  if (missing.length === 0) return undefined;
  const names = missing.map((p) => p.name);
  if (!isRoot() || spawnSync('sh', ['-c', 'command -v apt-get']).status !== 0) {
    return `the S3 tests need Debian's ${names.join(', ')} (install them with: sudo apt-get install -y ${names.join(' ')})`;
  }
  log(`Installing Debian packages: ${names.join(', ')}…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', '--no-install-recommends', ...names],
  ]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed`);
  }
  return undefined;
}

const serverConf = (kind: string, port: number, dir: string) => `[DEFAULT]
bind_ip = 127.0.0.1
bind_port = ${port}
workers = 0
devices = ${dir}/srv
mount_check = false
swift_dir = ${dir}
log_level = WARNING

[pipeline:main]
pipeline = ${kind}-server

[app:${kind}-server]
use = egg:swift#${kind}
`;

// No memcached: tempauth checks S3 signatures against its users without one (the cache middleware is
// there because tempauth insists on a client; with no server it answers every get with nothing).
const proxyConf = (port: number, dir: string) => `[DEFAULT]
bind_ip = 127.0.0.1
bind_port = ${port}
workers = 0
swift_dir = ${dir}
log_level = WARNING

[pipeline:main]
pipeline = catch_errors gatekeeper healthcheck proxy-logging cache listing_formats s3api tempauth copy slo dlo proxy-logging proxy-server

[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true

[filter:s3api]
use = egg:swift#s3api
location = ${REGION}

[filter:tempauth]
use = egg:swift#tempauth
user_test_tester = ${SECRET_KEY} .admin

[filter:cache]
use = egg:swift#memcache
memcache_servers = 127.0.0.1:1

[filter:catch_errors]
use = egg:swift#catch_errors
[filter:gatekeeper]
use = egg:swift#gatekeeper
[filter:healthcheck]
use = egg:swift#healthcheck
[filter:proxy-logging]
use = egg:swift#proxy_logging
[filter:listing_formats]
use = egg:swift#listing_formats
[filter:copy]
use = egg:swift#copy
[filter:slo]
use = egg:swift#slo
[filter:dlo]
use = egg:swift#dlo
`;

/**
 * Starts the server and creates its bucket. Answers its settings and how to stop it, or
 * `{ skipped: reason }` when the packages are absent and cannot be installed here.
 */
export async function startS3Server({
  log = (line: string) => console.error(line),
  verbose = false,
}: { log?: Log; verbose?: boolean } = {}): Promise<S3Server> {
  const started = Date.now();
  const skipped = ensurePackages(log);
  if (skipped) return { skipped };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-s3-'));
  fs.mkdirSync(path.join(dir, 'srv', 'd1'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'swift.conf'),
    '[swift-hash]\nswift_hash_path_suffix = parley-test\nswift_hash_path_prefix = parley-test\n\n[storage-policy:0]\nname = Policy-0\ndefault = yes\n',
  );
  fs.writeFileSync(path.join(dir, 'launch.py'), LAUNCHER);
  const kinds = ['account', 'container', 'object', 'proxy'] as const;
  const ports = Object.fromEntries(await Promise.all(kinds.map(async (kind) => [kind, await freePort()] as const))) as Record<(typeof kinds)[number], number>;
  for (const kind of kinds) {
    fs.writeFileSync(path.join(dir, `${kind}-server.conf`), kind === 'proxy' ? proxyConf(ports.proxy, dir) : serverConf(kind, ports[kind], dir));
  }
  const rings = spawnSync(PYTHON, [path.join(dir, 'launch.py'), dir, 'rings', String(ports.account), String(ports.container), String(ports.object)], {
    encoding: 'utf8',
  });
  if (rings.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`building the Swift rings failed: ${rings.stderr}`);
  }

  const output: Buffer[] = [];
  const children = kinds.map((kind) =>
    spawn(PYTHON, [path.join(dir, 'launch.py'), dir, kind], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...(verbose ? { S3_SERVER_VERBOSE: '1' } : {}) },
    }),
  );
  const stop = async () => {
    await Promise.all(
      children.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }),
    );
    fs.rmSync(dir, { recursive: true, force: true });
  };
  // A process that ends without stopping it (a crash, a test worker's exit) takes the servers with it.
  process.once('exit', () => {
    for (const child of children) child.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  });
  for (const child of children) {
    const keep = (chunk: Buffer) => {
      if (verbose) process.stderr.write(chunk);
      output.push(chunk);
      if (output.length > 200) output.shift();
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
  }

  const endpoint = `http://127.0.0.1:${ports.proxy}`;
  const settings: S3ServerSettings = {
    STORAGE_URL: `s3://${BUCKET}`,
    S3_ENDPOINT: endpoint,
    S3_REGION: REGION,
    S3_ACCESS_KEY_ID: ACCESS_KEY,
    S3_SECRET_ACCESS_KEY: SECRET_KEY,
    S3_FORCE_PATH_STYLE: 'true',
  };
  try {
    await createBucketWhenReady(settings, children, () => Buffer.concat(output).toString());
  } catch (error) {
    await stop();
    throw error;
  }
  return { settings, seconds: (Date.now() - started) / 1000, stop };
}

/** Creates the bucket as soon as the proxy and the servers behind it answer (within 100 s: a loaded machine is slow to start Python). */
async function createBucketWhenReady(settings: S3ServerSettings, children: ChildProcess[], output: () => string): Promise<void> {
  const { S3Client, CreateBucketCommand } = await import('@aws-sdk/client-s3');
  const client = new S3Client({
    endpoint: settings.S3_ENDPOINT,
    region: settings.S3_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: settings.S3_ACCESS_KEY_ID, secretAccessKey: settings.S3_SECRET_ACCESS_KEY },
    maxAttempts: 1,
  });
  const deadline = Date.now() + 100_000;
  try {
    for (;;) {
      const exited = children.find((child) => child.exitCode !== null);
      if (exited) throw new Error(`a Swift server exited with ${exited.exitCode}:\n${output()}`);
      try {
        await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
        return;
      } catch (error) {
        if ((error as Error).name === 'BucketAlreadyOwnedByYou') return;
        if (Date.now() > deadline) throw new Error(`the S3 server did not become ready: ${(error as Error).message}\n${output()}`, { cause: error });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } finally {
    client.destroy();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const server = await startS3Server({ verbose: process.argv.includes('--verbose') });
  if ('skipped' in server) {
    console.error(`No S3 server: ${server.skipped}`);
    process.exit(1);
  }
  for (const [name, value] of Object.entries(server.settings)) console.log(`export ${name}='${value}'`);
  console.error(`Swift (s3api) is ready in ${server.seconds.toFixed(1)} s; Ctrl-C stops it.`);
  const stop = () => server.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
