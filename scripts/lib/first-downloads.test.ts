import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build, type Rolldown } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstDownloads, type FirstDownloads } from './first-downloads.ts';

/**
 * A small app built with Vite as vite.config.ts builds Parley's: an entry that lazily loads a signed-in
 * page, a public page and an on-demand client; a package whose index re-exports everything, as
 * radix-ui and lucide-react do.
 */
const FILES: Record<string, string> = {
  'node_modules/kit/package.json': JSON.stringify({ name: 'kit', type: 'module', sideEffects: false, exports: './index.js' }),
  'node_modules/kit/index.js': [
    '// The barrel: namespaces, named re-exports and a star.',
    "import * as Alpha from './alpha.js';",
    "import * as Beta from './beta.js';",
    "import * as Unused from './unused.js';",
    "export { default as Gamma, default as GammaIcon } from './gamma.js';",
    "export * from './star.js';",
    'export { Alpha, Beta, Unused };',
  ].join('\n'),
  'node_modules/kit/alpha.js': "import { helper } from './helper.js';\nexport const alpha = () => `alpha ${helper()}`;",
  'node_modules/kit/beta.js': "export const beta = () => 'beta';",
  'node_modules/kit/gamma.js': "export default () => 'gamma';",
  'node_modules/kit/unused.js': "export const unused = () => 'unused';",
  'node_modules/kit/star.js': "export const starred = () => 'starred';",
  'node_modules/kit/helper.js': "export const helper = () => 'helped';",
  'src/main.js': [
    "import { Beta } from 'kit';",
    'document.title = Beta.beta();',
    "globalThis.load = [() => import('./app/shell.js'), () => import('./app/public.js'), () => import('./lib/client.js')];",
  ].join('\n'),
  'src/app/shell.js': [
    "import { Alpha, Gamma, starred } from 'kit';",
    "import { logo } from '../logo.js';",
    "import { sidebar } from '../sidebar.js';",
    "import { format } from '../format.js';",
    'export default () => [Alpha.alpha(), Gamma(), starred(), logo(), sidebar(), format()].join();',
  ].join('\n'),
  'src/app/public.js': "import { logo } from '../logo.js';\nexport default () => logo();",
  'src/lib/client.js': "import { format } from '../format.js';\nexport default () => format();",
  'src/logo.js': "export const logo = () => 'logo';",
  'src/sidebar.js': "export const sidebar = () => 'sidebar';",
  'src/format.js': "export const format = () => 'format';",
};

let dir = '';
let downloads: FirstDownloads;
let chunks: Rolldown.OutputChunk[] = [];
/** The fixture's modules of a set, by file (Vite adds a helper of its own, outside it). */
const relative = (ids: Iterable<string>) =>
  [...ids]
    .filter((id) => id.startsWith(dir))
    .map((id) => path.relative(dir, id))
    .sort();

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-first-downloads-'));
  for (const [file, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  downloads = firstDownloads(path.join(dir, 'src'), { pagesDir: 'app/', together: ['app/shell.js'], apart: ['app/public.js'] });
  const output = await build({
    root: dir,
    configFile: false,
    logLevel: 'silent',
    plugins: [downloads.plugin],
    build: {
      write: false,
      minify: false,
      rolldownOptions: {
        input: path.join(dir, 'src/main.js'),
        output: {
          codeSplitting: {
            includeDependenciesRecursively: false,
            groups: [
              { name: 'together', test: (id: string) => downloads.together.has(id) },
              { name: 'shared', test: (id: string) => downloads.shared.has(id) },
            ],
          },
        },
      },
    },
  });
  chunks = (Array.isArray(output) ? output : [output]).flatMap((result) => ('output' in result ? result.output : [])).filter((file) => file.type === 'chunk');
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('first downloads', () => {
  it("follows a barrel only to the modules behind the names taken from it, and leaves the entry's modules to the entry", () => {
    expect(relative(downloads.together)).toEqual([
      'node_modules/kit/alpha.js',
      'node_modules/kit/gamma.js',
      'node_modules/kit/helper.js',
      'node_modules/kit/star.js',
      'src/app/shell.js',
      'src/sidebar.js',
    ]);
  });

  it('keeps apart what the pages apart and the entry’s on-demand modules share with the rest', () => {
    expect(relative(downloads.shared)).toEqual(['src/format.js', 'src/logo.js']);
  });

  it('so the public page and the on-demand client do not download the signed-in chunk', () => {
    const chunkOf = (file: string) => chunks.find((chunk) => chunk.moduleIds.includes(path.join(dir, file)));
    const together = chunkOf('src/app/shell.js');
    expect(relative(together?.moduleIds ?? [])).toEqual(relative(downloads.together));
    for (const page of ['src/app/public.js', 'src/lib/client.js']) {
      expect(chunkOf(page)?.imports).not.toContain(together?.fileName);
      expect(chunkOf(page)?.imports).toContain(chunkOf('src/logo.js')?.fileName);
    }
    expect(relative(chunks.flatMap((chunk) => chunk.moduleIds))).not.toContain('node_modules/kit/unused.js');
  });
});
