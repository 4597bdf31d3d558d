import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { DATABASE_FREE_FILES, ENGINE_BOUND_FILES } from './tests/support/database-free-files.ts';

/**
 * Test projects. Integration tests run once on SQLite and, when TEST_DATABASE_URL is set, again on
 * PostgreSQL with the very same files, but those that never open a database (database-free-files.ts).
 * Browser tests (e2e) drive Debian's chromium against the built server, a few files at a time.
 */
const integrationFiles = ['src/**/*.int.test.ts', 'tests/contract/**/*.test.ts'];
const hasPostgres = Boolean(process.env.TEST_DATABASE_URL);

/**
 * Test files running at once. Vitest's default is one fewer than the cores, which is a single file
 * at a time on a 2-core machine; integration files spend most of their time waiting (on servers,
 * child processes, databases and the job queue's leases), so several side by side keep the cores
 * busy. `--maxWorkers=1` on the command line runs them one by one.
 */
const maxWorkers = 4;

/**
 * Integration files share their workers' loaded modules (isolate: false): each file loaded the whole
 * server anew (about 1.6 s of CPU; a third of the integration projects' CPU). They may: each builds
 * its own app, database and data folder and closes them, and none mocks a module or changes globals.
 */
const integration = {
  environment: 'node',
  isolate: false,
  // npm test runs these at a low priority (nice 10) beside the speech engines and the browser, which
  // can take most of the two cores for minutes: a 20-second test there has taken 26. The timeouts only
  // catch a hang (what a test promises about time it asserts itself, or npm run bench measures), and
  // expect.poll's 1 s default is shorter than a starved server's answer; a poll that settles passes at once.
  testTimeout: 60_000,
  hookTimeout: 120_000,
  expect: { poll: { timeout: 5_000 } },
} as const;

/**
 * The order files start in when projects run together (npm test's main step): PostgreSQL's files
 * first, then SQLite's, then the unit and web files. vitest's own order runs the projects by name
 * (SQLite, PostgreSQL, unit, web) and, in a fresh clone with no timings kept, each project's files
 * largest first; PostgreSQL's files take about twice their SQLite twins, so they came last and the
 * run ended on a few long files with the cores half idle. The many short unit and web files fill in
 * at the end.
 */
const PROJECT_ORDER = ['integration-postgres', 'integration', 'unit', 'web'];
class SlowestProjectsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = PROJECT_ORDER.indexOf(file.project.name);
      return at === -1 ? PROJECT_ORDER.length : at;
    };
    const group = (file: TestSpecification) => file.project.config.sequence.groupOrder;
    // Stable: within a project, vitest's own order stands.
    return (await super.sort(files)).sort((a, b) => group(a) - group(b) || rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    maxWorkers,
    sequence: { sequencer: SlowestProjectsFirst },
    projects: [
      {
        test: {
          name: 'unit',
          // A worker thread for each file rather than a process (each file still gets its own modules):
          // most of a unit file's cost was Node starting and loading vitest.
          pool: 'threads',
          include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: ['src/**/*.int.test.ts', 'node_modules/**'],
          environment: 'node',
          // npm test runs these at nice 10 beside the speech engines and the browser: the local notes
          // engine's 33 000-word segment, 0.2 s on an idle machine, once took over 5 s (the default) there.
          testTimeout: 15_000,
        },
      },
      {
        // recharts' CommonJS build requires @reduxjs/toolkit, which a VM context loads as its ES module
        // and fails on; its ES build imports it as one.
        resolve: { alias: [{ find: /^recharts$/, replacement: 'recharts/es6/index.js' }] },
        test: {
          name: 'web',
          include: ['src/web/**/*.test.tsx'],
          environment: 'jsdom',
          // Each file in a VM context of its own (its own jsdom, modules and mocks) inside a worker thread
          // that loads jsdom and the packages once: 159 -> 45 s of CPU, against 110 with a thread a file.
          // (Sharing a worker's modules outright, isolate: false, leaked one file's mocks into another.)
          pool: 'vmThreads',
          setupFiles: ['tests/support/web/setup.ts'],
          // jsdom renders on the same two cores as everything else npm test runs side by side.
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: integrationFiles,
          env: { PARLEY_TEST_DB: 'sqlite' },
          globalSetup: ['tests/support/test-database-template.ts', 'tests/support/redis-server.ts'],
          ...integration,
        },
      },
      ...(hasPostgres
        ? [
            {
              test: {
                name: 'integration-postgres',
                // Files that never open a database, or open one only to feed the speech engines, run on
                // SQLite only (database-free-files.ts says why). Left
                // out by negated patterns: a project's own `exclude` would drop the command line's --exclude,
                // which npm test's steps use to keep the speech engine files out of the main step.
                include: [...integrationFiles, ...[...DATABASE_FREE_FILES, ...ENGINE_BOUND_FILES].map((file) => `!${file}`)],
                // A test schema is thrown away: its commits need not wait for the disk (a quarter of a
                // PostgreSQL file's time). libpq's PGOPTIONS reaches every connection the tests and the
                // processes they start open (test-database.ts adds it to the schema's).
                env: { PARLEY_TEST_DB: 'postgres', PGOPTIONS: '-c synchronous_commit=off' },
                globalSetup: ['tests/support/test-database-template.ts', 'tests/support/redis-server.ts'],
                ...integration,
              },
            },
          ]
        : []),
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.spec.ts'],
          environment: 'node',
          globalSetup: ['tests/support/e2e-global-setup.ts'],
          // Two files at a time, each with its own chromium and accounts on its worker's server (tests
          // that need a server of their own start it). After the other projects when run together.
          maxWorkers: 2,
          // As the integration files: each worker loads playwright-core and supabase-js once, not once a
          // file (import time 42 -> 10 s). No browser test mocks a module or changes a global.
          isolate: false,
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // expect.poll's default of 1 s is shorter than a page's first load (the shell, the session,
          // then the data) on two cores shared with the other steps; a poll that settles still passes
          // at once, one that never does fails after 5 s.
          expect: { poll: { timeout: 5_000 } },
        },
      },
    ],
  },
});
