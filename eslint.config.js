// Lint carries the architecture: import boundaries between shared, server and web (STYLE.md),
// no cycles, and process.env read only by the config module.
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs'] })],
    },
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './src/shared', from: ['./src/server', './src/web', './tests'], message: 'shared code stays isomorphic' },
            { target: './src/server', from: './src/web', message: 'the server never imports the web app' },
            { target: './src/web', from: './src/server', message: 'the web app talks to the server over HTTP only' },
            { target: './src/server/db', from: './src/server/features', except: ['./auth/auth.table.ts', './meetings/meetings.table.ts', './settings/settings.table.ts', './sharing/sharing.table.ts', './transcription/jobs/jobs.table.ts'], message: 'infra never imports features (only table types)' },
            { target: ['./src/server/http', './src/server/lib'], from: './src/server/features', message: 'infra never imports features' },
            { target: ['./src/web/components', './src/web/hooks', './src/web/lib'], from: ['./src/web/features', './src/web/app'], message: 'shared web code never imports features or app' },
            { target: './src/web/features', from: './src/web/app', message: 'features never import app/' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/server/**/*.ts'],
    ignores: ['src/server/config.ts'],
    rules: {
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'read configuration through src/server/config.ts' }],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Kysely's guidance: migrations are frozen in time and typed against Kysely<any>.
    files: ['src/server/db/migrations/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'tests/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
