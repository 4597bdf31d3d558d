// `npm test`: install what is missing (npm packages; Debian's chromium through apt-get as root), then
// run every check at once: formatting, types, lint and unused code (knip) beside the unit, web and
// integration tests (SQLite, and PostgreSQL when TEST_DATABASE_URL is set), the integration tests with
// real speech engines, and the build, then the browser tests against the built server. Each step's
// output is held until it ends, then printed whole under its name with its time, so steps running side
// by side never interleave their lines.
// The run fails if any step fails; the last line counts the tests.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildStatus, ensureDebianPackages, ensureNodeModules, log, markBuilt, ROOT } from './lib/setup.mjs';
import { ensureRuntime } from './lib/runtime.mjs';
import { RUNTIME_PACKAGES, TEST_PACKAGES } from './system-packages.mjs';

await ensureRuntime();
ensureDebianPackages([...RUNTIME_PACKAGES, ...TEST_PACKAGES]);
ensureNodeModules();
// TypeScript, so loaded only now: the Node this file first ran on (20) strips no types; ensureRuntime
// has re-run it on the project's Node 24, and node_modules is in place for what it imports.
const { startS3Server } = await import('./s3-server.ts');
const { dropTestSchemas } = await import('./lib/test-schemas.ts');

log(`Running on Node.js ${process.versions.node} (${process.execPath}).`);

/**
 * The tests' files (databases, data folders, uploads, chromium's profiles) go to memory (tmpfs) where
 * the machine has it: written and deleted within seconds, on disk they cost the kernel's journal and
 * writeback a tenth of the run's CPU. Removed when the run ends.
 */
function memoryTmpdir() {
  try {
    fs.accessSync('/dev/shm', fs.constants.W_OK);
    const dir = fs.mkdtempSync(path.join('/dev/shm', 'parley-test-'));
    process.env.TMPDIR = dir; // os.tmpdir() in this process and every one it starts
    return dir;
  } catch {
    return undefined;
  }
}
const scratchDir = memoryTmpdir();

const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-test-report-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
/** Each failed test's file, name and first lines of its error, printed last so a log's tail names them. */
const failures = [];
const started = Date.now();
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/**
 * CPU seconds (user and system) of this process's children that have ended, with all the processes
 * they waited for: Linux adds a child's time to its parent's when the parent reaps it. Read when a
 * step's command exits, the growth since the last reading is that command's CPU, browsers, test
 * workers and engines included (the database and Redis services are not children: not counted).
 */
let childCpuSeen = 0;
function childCpuSinceLastReading() {
  let total;
  try {
    // Fields 16 and 17 of /proc/self/stat (cutime, cstime), in clock ticks; the name (field 2) may hold spaces, so count after it.
    const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    total = (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
  const since = total - childCpuSeen;
  childCpuSeen = total;
  return since;
}

/** Runs one command ([command, ...args]) with its output (stdout and stderr, in order) captured; resolves with its exit code and CPU seconds. */
function capture([command, ...args]) {
  return new Promise((resolve) => {
    const chunks = [];
    let cpu;
    // FORCE_COLOR: the tools colour their output as in a terminal, though it goes through a pipe here.
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0' } });
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('error', (error) => chunks.push(Buffer.from(`${error.message}\n`)));
    child.on('exit', () => (cpu = childCpuSinceLastReading()));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString(), cpu }));
  });
}

/**
 * A step: its tasks (a command, or a function resolving like `capture`) run one after another; its
 * output is printed when it ends, with its time.
 */
async function step(name, tasks) {
  const begun = Date.now();
  let output = '';
  let ok = true;
  let cpu = 0;
  for (const task of tasks) {
    const result = typeof task === 'function' ? await task() : await capture(task);
    output += result.output;
    cpu += result.cpu ?? 0;
    if (result.code !== 0) {
      output += `\n${typeof task === 'function' ? name : task.join(' ')} exited with ${result.code}\n`;
      ok = false;
      break;
    }
  }
  const took = seconds(Date.now() - begun);
  log(`${ok ? '✓' : '✗'} ${name} (${took}, ${seconds(cpu * 1000)} of CPU)`);
  if (output.trim()) process.stdout.write(`${output.trimEnd()}\n\n`);
  return { name, ok, took };
}

/** Adds a vitest JSON report's counts to the totals. */
function count(report) {
  if (!fs.existsSync(report)) return;
  const result = JSON.parse(fs.readFileSync(report, 'utf8'));
  totals.passed += result.numPassedTests;
  totals.failed += result.numFailedTests;
  totals.skipped += result.numPendingTests + result.numTodoTests;
  for (const file of result.testResults ?? []) {
    const where = path.relative(ROOT, file.name);
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    // A file that failed without a failed test (it did not load, or a hook threw) says why in its message.
    if (failedTests.length === 0 && file.status === 'failed') failures.push(`${where}: ${firstLines(file.message)}`);
    for (const test of failedTests) failures.push(`${where} › ${test.fullName}: ${firstLines(test.failureMessages?.join('\n'))}`);
  }
}

/** The first few lines of an error, without colour codes. */
function firstLines(text = '') {
  // eslint-disable-next-line no-control-regex -- the colour codes vitest writes are control characters
  const plain = text.replace(/\u001b\[[0-9;]*m/g, '');
  return plain.split('\n').slice(0, 6).join('\n    ');
}

function vitest(name, projects, extra = []) {
  const report = path.join(reportDir, `${name}.json`);
  const projectArgs = projects.flatMap((p) => ['--project', p]);
  const command = ['npx', 'vitest', 'run', ...projectArgs, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...extra];
  return { command, report };
}

/**
 * Steps bound by the cores whose tests have no time budget run at a lower priority (nice 10): they
 * fill the time the speech engines and the browser leave free, and never starve them, whose tests
 * have real-time budgets (the live transcript) and timeouts.
 */
const background = (command) => ['nice', '-n', '10', ...command];

// One real S3 server (Swift's s3api, scripts/s3-server.ts) for the run, started beside the steps
// that do not need it: the blob store's contract suite and the app-on-S3 test read its settings as
// TEST_S3_*, handed to the step that runs them when it starts. Without Swift and without root to
// install it, those tests skip and say why; a server that fails to start fails that step.
const s3Server = startS3Server({ log }).catch((error) => ({ failed: error }));
const s3Ready = async () => {
  const s3 = await s3Server;
  if ('failed' in s3) return { code: 1, output: `The S3 server for the S3 tests did not start: ${s3.failed.message}\n` };
  if ('skipped' in s3) return { code: 0, output: `No S3 server: ${s3.skipped}; the S3 tests are skipped.\n` };
  for (const [name, value] of Object.entries(s3.settings)) process.env[`TEST_${name}`] = value;
  return { code: 0, output: `Started an S3 server (Swift s3api) for the S3 tests in ${seconds(s3.seconds * 1000)}.\n` };
};

const integrationProjects = ['integration', ...(process.env.TEST_DATABASE_URL ? ['integration-postgres'] : [])];
if (!process.env.TEST_DATABASE_URL) log('TEST_DATABASE_URL is not set: integration tests run on SQLite only.');
else log(`Dropped ${await dropTestSchemas(process.env.TEST_DATABASE_URL)} test schemas of earlier runs from TEST_DATABASE_URL.`);

// The integration tests that keep a speech engine busy (pocketsphinx, sherpa-onnx, speaker clustering)
// are bound by the cores, some on a real-time budget (the live transcript): they run in a step of
// their own, two files at a time, beside the others, which mostly wait on servers and databases.
const ENGINE_TESTS = 'src/server/features/transcription/';
// The live transcript's own tests recognise speech as fast as it is streamed: with the real-time
// browser tests, once the other engine tests are done.
const LIVE_TESTS = 'src/server/features/transcription/live/';
const main = vitest('main', ['unit', 'web', ...integrationProjects], ['--exclude', `${ENGINE_TESTS}**`]);
const engines = vitest('engines', integrationProjects, ['--maxWorkers=2', '--exclude', `${LIVE_TESTS}**`, ENGINE_TESTS]);
const live = vitest('live', integrationProjects, ['--maxWorkers=2', LIVE_TESTS]);
// The browser test files that hold the cores to a real-time budget (the live transcript recognised
// while it is spoken; a recording through a server outage) run once the speech engine tests are done,
// never beside them; the other browser tests start as soon as the build is there.
const REAL_TIME_BROWSER_TESTS = ['tests/e2e/live-transcript.spec.ts', 'tests/e2e/record.spec.ts'];
const e2e = vitest(
  'e2e',
  ['e2e'],
  REAL_TIME_BROWSER_TESTS.flatMap((file) => ['--exclude', file]),
);
const e2eRealTime = vitest('e2e-real-time', ['e2e'], REAL_TIME_BROWSER_TESTS);
const build = buildStatus();

log('Running the checks and tests side by side; each step prints when it ends.');
childCpuSinceLastReading(); // what setting up took is no step's
const engineTests = step('Integration tests with speech engines', [engines.command]).finally(() => count(engines.report));
const built = build.current
  ? Promise.resolve({ name: 'Build (current)', ok: true, took: seconds(0) })
  : step('Build', [
      async () => {
        // At the normal priority: the browser tests wait for it.
        const result = await capture(['npm', 'run', '--silent', 'build']);
        if (result.code === 0) markBuilt(build.wanted);
        return result;
      },
    ]);
// The browser tests drive the built server.
const browserTests = (name, after, runs) =>
  Promise.all([built, ...after]).then(([buildResult]) =>
    buildResult.ok
      ? step(
          name,
          runs.map((run) => run.command),
        ).finally(() => runs.forEach((run) => count(run.report)))
      : { name: `${name} (not run: the build failed)`, ok: false, took: seconds(0) },
  );
const results = await Promise.all([
  step('Unit, web and integration tests', [s3Ready, background(main.command)]).finally(() => count(main.report)),
  engineTests,
  built,
  browserTests('Browser tests (chromium)', [], [e2e]),
  browserTests('Live transcript and other real-time tests (server, chromium)', [engineTests], [live, e2eRealTime]),
  step('Format', [background(['npm', 'run', '--silent', 'format:check'])]),
  step('Type check', [background(['npm', 'run', '--silent', 'typecheck'])]),
  step('Lint', [background(['npm', 'run', '--silent', 'lint'])]),
  step('Unused files, exports and dependencies (knip)', [background(['npm', 'run', '--silent', 'knip'])]),
]);

fs.rmSync(reportDir, { recursive: true, force: true });
if (scratchDir) fs.rmSync(scratchDir, { recursive: true, force: true });
const s3 = await s3Server;
if ('stop' in s3) await s3.stop();
const failed = results.filter((r) => !r.ok);
console.log(`\nSteps: ${results.map((r) => `${r.name} ${r.ok ? 'passed' : 'FAILED'} in ${r.took}`).join('; ')}.`);
childCpuSinceLastReading();
console.log(`All of npm test took ${seconds(Date.now() - started)}, ${seconds(childCpuSeen * 1000)} of CPU.`);
if (failed.length > 0) console.log(`npm test failed at: ${failed.map((r) => r.name).join(', ')}`);
if (failures.length > 0) console.log(`\nFailed:\n${failures.map((f) => `  ${f}`).join('\n')}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
if (failed.length > 0) process.exit(1);
