// Lint carries the architecture: import boundaries between shared, server and web (STYLE.md),
// walls between the server's features and between the web's, no cycles, and process.env read only by the config module.
import fs from 'node:fs';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * bulletproof-react's walls for the web app: a feature imports shared web code and its own files,
 * never another feature; only app/ (its routes) combines features. Every folder of
 * src/web/features gets one, so a new feature is walled off without a lint change.
 */
function webFeatureZones() {
  return fs
    .readdirSync('src/web/features', { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => ({
      target: `./src/web/features/${d.name}`,
      from: './src/web/features',
      except: [`./${d.name}`],
      message: 'features never import each other: combine them in app/routes',
    }));
}

const importZones = [
  { target: './src/shared', from: ['./src/server', './src/web', './tests'], message: 'shared code stays isomorphic' },
  { target: './src/server', from: './src/web', message: 'the server never imports the web app' },
  { target: './src/web', from: './src/server', message: 'the web app talks to the server over HTTP only' },
  {
    target: './src/server/db',
    from: './src/server/features',
    except: [
      './ask/ask.table.ts',
      './auth/auth.table.ts',
      './meetings/meetings.table.ts',
      './notes/notes.table.ts',
      './settings/settings.table.ts',
      './sharing/sharing.table.ts',
      './data-export/data-export.table.ts',
      './teams/teams.table.ts',
      './notifications/notifications.table.ts',
      './api-tokens/api-tokens.table.ts',
      './billing/billing.table.ts',
      './webhooks/webhooks.table.ts',
      './calendar/calendar.table.ts',
      './slack/slack.table.ts',
      './microsoft-teams/microsoft-teams.table.ts',
      './teams-sync/teams-sync.table.ts',
      './emotion/emotion.table.ts',
      './voice-profiles/voice-profiles.table.ts',
      './vocabulary/vocabulary.table.ts',
      './samples/samples.table.ts',
    ],
    message: 'infra never imports features (only table types)',
  },
  {
    target: ['./src/server/http', './src/server/lib', './src/server/jobs', './src/server/events'],
    from: './src/server/features',
    message: 'infra never imports features',
  },
  { target: ['./src/web/components', './src/web/hooks', './src/web/lib'], from: './src/web/features', message: 'shared web code never imports features' },
  {
    target: ['./src/web/components', './src/web/hooks', './src/web/lib'],
    from: './src/web/app',
    except: ['./paths.ts'],
    message: 'shared web code never imports app/ (the route table excepted)',
  },
  { target: './src/web/features', from: './src/web/app', except: ['./paths.ts'], message: 'features never import app/ (the route table excepted)' },
  { target: './src/web/app/paths.ts', from: './src/web', message: 'the route table imports nothing, so anything may import it' },
  ...webFeatureZones(),
];

/**
 * Walls between the server's features: a feature reaches another only through its service
 * (`*.service.ts`), never its repository, tables or routes. Auth's guard and token check are the
 * service every route uses. Tests may set up state through another feature's internals.
 */
const serverFeatures = fs
  .readdirSync('src/server/features', { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
/** Another feature's public face: its service (named after the feature), and auth's guard and token check. */
const publicModules = [
  ...serverFeatures.map((feature) => `**/features/${feature}/${feature}.service.ts`),
  '**/features/auth/api-guard.ts',
  '**/features/auth/authenticate.ts',
  '**/features/auth/auth-context.ts',
  '**/features/auth/gotrue-error.ts',
  '**/features/auth/users.ts',
];
const featureZones = serverFeatures.map((feature) => ({
  target: `./src/server/features/${feature}`,
  from: `./src/server/features/!(${feature})/**`,
  except: publicModules,
  message: 'another feature is reached only through its service (<feature>/<feature>.service.ts)',
}));

/**
 * Every table has one owner: the feature (or infrastructure folder) whose `*.table.ts` declares it
 * in its `…Tables` type. Only the owner's code names the table in a Kysely call; others read and
 * change it through the owner's service. Kysely names the table in the call, so lint sees every
 * statement. The table list is read from the table files, so it stays current.
 */
function tablesDeclaredIn(file) {
  if (!fs.existsSync(file)) return [];
  const text = fs.readFileSync(file, 'utf8');
  const block = text.match(/export type \w+Tables = \{([^}]*)\}/);
  return block ? [...block[1].matchAll(/(\w+)\s*:\s*\w+/g)].map((m) => m[1]) : [];
}
const tableOwners = [
  ...serverFeatures.map((feature) => ({
    dir: `src/server/features/${feature}`,
    tables: tablesDeclaredIn(`src/server/features/${feature}/${feature}.table.ts`),
  })),
  { dir: 'src/server/jobs', tables: tablesDeclaredIn('src/server/jobs/jobs.table.ts') },
  { dir: 'src/server/events', tables: tablesDeclaredIn('src/server/events/events.table.ts') },
  { dir: 'src/server/lib', tables: tablesDeclaredIn('src/server/lib/blobs.table.ts') },
  { dir: 'src/server/db', tables: ['instance_settings'] },
];
const meetingTables = tablesDeclaredIn('src/server/features/meetings/meetings.table.ts');
const tableCall = (methods, tables) => `CallExpression[callee.property.name=/^(${methods})$/][arguments.0.value=/^(${tables.join('|')})( as \\w+)?$/]`;
const WRITES = 'updateTable|insertInto|replaceInto|deleteFrom|mergeInto';
const READS = 'selectFrom|innerJoin|leftJoin|rightJoin|fullJoin';
/** The Kysely calls an area may not make: any on another owner's tables (`readOnly`: those it may join read-only). */
const foreignTableRules = (owner, readOnly = []) => {
  const others = tableOwners.filter((o) => o !== owner).flatMap((o) => o.tables);
  const unreadable = others.filter((t) => !readOnly.includes(t));
  return [
    { selector: tableCall(WRITES, others), message: 'a table is written only by the feature that owns it (its *.table.ts): call that feature’s service' },
    ...(unreadable.length > 0
      ? [{ selector: tableCall(READS, unreadable), message: 'a table is read only by the feature that owns it (its *.table.ts): use that feature’s read API' }]
      : []),
  ];
};
const tableOwnershipConfigs = tableOwners.map((owner) => ({
  files: [`${owner.dir}/**/*.ts`],
  ignores: ['**/*.test.ts', 'src/server/db/migrations/**'],
  rules: {
    // The notes feature's lists join the meeting for its title and owner, read-only (the reader's scope comes from the meetings service).
    'no-restricted-syntax': ['error', ...foreignTableRules(owner, owner.dir.endsWith('/notes') ? meetingTables : [])],
  },
}));

const testSupportOnly = { regex: '^#tests/', message: 'test support is for tests only' };
const authClientAlone = {
  name: '@supabase/supabase-js',
  message: "the web app uses Supabase's auth client alone: loadSupabase() from '#web/lib/supabase.ts', types from @supabase/auth-js",
};
const zodMini = {
  name: 'zod',
  message:
    "import { z } from 'zod/mini': the web app checks answers with these schemas, and classic zod ships whole (about 24 KiB gzip on the first page, mini about 10)",
};
const sonnerThroughFacade = {
  name: 'sonner',
  importNames: ['toast'],
  message: "import toast from '#web/lib/toast.ts', which loads sonner after the first page instead of with it",
};

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
      'import-x/no-restricted-paths': ['error', { zones: importZones }],
    },
  },
  {
    files: ['src/server/features/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: [...importZones, ...featureZones] }] },
  },
  {
    // One rate-limit port (lib/rate-limit.ts, made once in deps.ts): a feature never makes a limiter whose counts only its process sees.
    files: ['src/server/features/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'rate-limiter-flexible', message: "limiters come from the rate-limit port (RateLimiters, '#server/lib/rate-limit.ts') deps.ts hands in" },
          ],
        },
      ],
    },
  },
  ...tableOwnershipConfigs,
  {
    files: ['src/server/**/*.ts'],
    ignores: ['src/server/config.ts'],
    rules: {
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'read configuration through src/server/config.ts' }],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}', 'tests/support/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // The web app's test helpers live in tests/support/web; only its tests may use them.
    files: ['src/web/**/*.{ts,tsx}'],
    ignores: ['**/*.test.tsx'],
    rules: { 'no-restricted-imports': ['error', { patterns: [testSupportOnly], paths: [sonnerThroughFacade, authClientAlone, zodMini] }] },
  },
  {
    // The one module that loads sonner's toast for the rest (it keeps sonner off the first page's download).
    files: ['src/web/lib/toast.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [testSupportOnly], paths: [authClientAlone, zodMini] }] },
  },
  {
    // The contracts are the web app's too (the server loads zod's English messages for them).
    files: ['src/shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [zodMini] }] },
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
