// `npm test`: install what is missing (npm packages; Debian's chromium through apt-get as root),
// build, then run every check: formatting, types, lint, unit, integration (SQLite, and PostgreSQL when
// TEST_DATABASE_URL is set), then the browser tests against the built server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkNodeVersion, ensureBuild, ensureDebianPackages, ensureNodeModules, log, run } from './lib/setup.mjs';
import { RUNTIME_PACKAGES, TEST_PACKAGES } from './system-packages.mjs';

checkNodeVersion();
ensureDebianPackages([...RUNTIME_PACKAGES, ...TEST_PACKAGES]);
ensureNodeModules();
ensureBuild();

const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-test-report-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
let failedStep;

function step(name, fn) {
  if (failedStep) return;
  log(name);
  try {
    fn();
  } catch (error) {
    failedStep = name;
    console.error(`\n${name} failed: ${error.message}`);
  }
}

function vitest(name, projects) {
  const report = path.join(reportDir, `${name}.json`);
  const args = ['vitest', 'run', ...projects.flatMap((p) => ['--project', p]), '--reporter=default', '--reporter=json', `--outputFile.json=${report}`];
  try {
    run('npx', args);
  } finally {
    if (fs.existsSync(report)) {
      const result = JSON.parse(fs.readFileSync(report, 'utf8'));
      totals.passed += result.numPassedTests;
      totals.failed += result.numFailedTests;
      totals.skipped += result.numPendingTests + result.numTodoTests;
    }
  }
}

const integrationProjects = ['integration', ...(process.env.TEST_DATABASE_URL ? ['integration-postgres'] : [])];
if (!process.env.TEST_DATABASE_URL) log('TEST_DATABASE_URL is not set: integration tests run on SQLite only.');

step('Format', () => run('npm', ['run', '--silent', 'format:check']));
step('Type check', () => run('npm', ['run', '--silent', 'typecheck']));
step('Lint', () => run('npm', ['run', '--silent', 'lint']));
step('Unit and integration tests', () => vitest('main', ['unit', 'web', ...integrationProjects]));
step('Browser tests (chromium)', () => vitest('e2e', ['e2e']));

fs.rmSync(reportDir, { recursive: true, force: true });
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
if (failedStep) {
  console.error(`npm test failed at: ${failedStep}`);
  process.exit(1);
}
