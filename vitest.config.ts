import { defineConfig } from 'vitest/config';

/**
 * Test projects. Integration tests run once on SQLite and, when TEST_DATABASE_URL is set, again on
 * PostgreSQL with the very same files. Browser tests (e2e) drive Debian's chromium against the
 * built server, a few files at a time.
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

export default defineConfig({
  test: {
    maxWorkers,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts'],
          exclude: ['src/**/*.int.test.ts', 'node_modules/**'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'web',
          include: ['src/web/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['tests/support/web/setup.ts'],
          // jsdom renders on the same two cores as everything else npm test runs side by side.
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: integrationFiles,
          environment: 'node',
          env: { PARLEY_TEST_DB: 'sqlite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...(hasPostgres
        ? [
            {
              test: {
                name: 'integration-postgres',
                include: integrationFiles,
                environment: 'node',
                env: { PARLEY_TEST_DB: 'postgres' },
                testTimeout: 30_000,
                hookTimeout: 60_000,
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
          // Two files at a time, each with its own chromium and accounts on the one shared server (tests
          // that need a server of their own start it). After the other projects when run together.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
