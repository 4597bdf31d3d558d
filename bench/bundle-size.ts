import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { LANDING_PAGE_FILE } from '#shared/contracts/web-build.ts';
import type { Row } from './lib/report.ts';

type ManifestChunk = { file: string; src?: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[]; name?: string };
type Manifest = Record<string, ManifestChunk>;

const WEB_DIR = 'dist/web';

function gzipSize(file: string): number {
  return zlib.gzipSync(fs.readFileSync(path.join(WEB_DIR, file)), { level: 9 }).length;
}

/** The JavaScript a page needs: the chunk plus everything it imports statically, transitively. */
function staticClosure(manifest: Manifest, keys: string[]): Set<string> {
  const files = new Set<string>();
  const visit = (key: string): void => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    if (chunk.file.endsWith('.js')) files.add(chunk.file);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  keys.forEach(visit);
  return files;
}

const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB gzip`;

/** Issue 14's goals, in KiB gzip. */
const GOALS = { landing: 100, shell: 150 };
const against = (bytes: number, goal: number): string => `${kib(bytes)} (goal ≤ ${goal} KiB, ${bytes / 1024 <= goal ? 'met' : 'missed'})`;

/** The manifest's keys of the scripts a static page loads (`<script src>`, `<link rel="modulepreload">`). */
function scriptsOf(manifest: Manifest, htmlFile: string): string[] {
  const html = fs.readFileSync(path.join(WEB_DIR, htmlFile), 'utf8');
  const urls = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="\/([^"]+\.js)"/g)].map((match) => match[1]);
  return Object.keys(manifest).filter((key) => urls.includes(manifest[key]?.file));
}

/**
 * Gzip sizes of the JavaScript behind the landing page and behind the signed-in app shell. The
 * landing page is the static one the build prerenders (landing.html): what its own tags load; the
 * app's landing route (entry + its chunk) only where the build made none.
 */
export function measureBundles(): Row[] {
  const manifestPath = path.join(WEB_DIR, '.vite/manifest.json');
  if (!fs.existsSync(manifestPath)) return [{ name: 'bundle sizes', value: 'no dist/web/.vite/manifest.json (build with manifest: true)' }];
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Manifest;
  const entry = 'index.html';
  if (!manifest[entry]?.isEntry) return [{ name: 'bundle sizes', value: 'no index.html entry in the manifest' }];
  const find = (pattern: RegExp): string[] => Object.keys(manifest).filter((k) => pattern.test(k));
  const staticLanding = fs.existsSync(path.join(WEB_DIR, LANDING_PAGE_FILE));
  const landing = staticClosure(manifest, staticLanding ? scriptsOf(manifest, LANDING_PAGE_FILE) : [entry, ...find(/landing/i)]);
  const shell = staticClosure(manifest, [entry, ...find(/app-shell|app-layout|dashboard|signed-in/i)]);
  const total = (files: Set<string>): number => [...files].reduce((sum, f) => sum + gzipSize(f), 0);
  const allJs = Object.values(manifest).filter((c) => c.file.endsWith('.js'));
  return [
    {
      name: 'landing page JavaScript',
      value: against(total(landing), GOALS.landing),
      note: `${landing.size} files${staticLanding ? ', the static landing page (HTML prerendered by the build)' : ''}`,
    },
    { name: 'app shell + dashboard JavaScript', value: against(total(shell), GOALS.shell), note: `${shell.size} files` },
    { name: 'all JavaScript chunks', value: kib(allJs.reduce((s, c) => s + gzipSize(c.file), 0)), note: `${allJs.length} files` },
  ];
}
