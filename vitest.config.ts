import { defineConfig } from 'vitest/config';

/**
 * Test projects. Integration tests run once on SQLite and, when TEST_DATABASE_URL is set, again on
 * PostgreSQL with the very same files. Browser tests (e2e) drive Debian's chromium against the
 * built server and run one file at a time.
 */
const integrationFiles = ['src/**/*.int.test.ts', 'tests/contract/**/*.test.ts'];
const hasPostgres = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  test: {
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
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
