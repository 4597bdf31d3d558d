import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * Which modules a first page needs, read from the module graph when the build has it (buildEnd, before
 * chunking), for vite.config.ts's chunk groups: what some lazy roots import statically beyond the
 * app's entries, split by whether other pages need it too.
 *
 * The graph before tree-shaking says more than a page uses where it goes through a barrel: `radix-ui`
 * and `lucide-react` re-export every primitive and every icon from one index, so following every
 * import of the index would put all of them on every page. A barrel (a module of import and export
 * statements only) is followed only to the modules that export the names its importer asks for.
 */
export type FirstDownloads = { plugin: Plugin; together: ReadonlySet<string>; shared: ReadonlySet<string> };

/**
 * Files under the web root: the lazy modules whose first download is wanted together, and the pages
 * that must not download it. The entries' other lazy modules (outside `pagesDir`, where the pages and
 * layouts are) count as apart too.
 */
export type FirstDownloadRoots = { together: readonly string[]; apart: readonly string[]; pagesDir: string };

type Barrel = { named: Map<string, string>; star: string[] };

type Graph = {
  code(id: string): string | null;
  imports(id: string): readonly string[];
  /** barrelExports of a module, read once per build (lucide-react's index is 2 000 lines, imported by dozens of modules). */
  barrel(id: string): Barrel | undefined;
  resolve(spec: string, importer: string): Promise<string | undefined>;
};

/** `import … from`, `export … from`; the clause is what comes between the keyword and `from`. */
const FROM_STATEMENT = /\b(import|export)\s+(?:type\s+)?([^;'"]*?)\s*from\s*["']([^"']+)["']\s*;?/g;
/** `export { a as b, c };` with no `from`: a barrel re-exporting what it imported. */
const LOCAL_EXPORT = /\bexport\s*\{([^}]*)\}\s*;?/g;
const SIDE_EFFECT_IMPORT = /\bimport\s*["'][^"']+["']\s*;?/g;
const COMMENTS = /\/\*[\s\S]*?\*\/|\/\/[^\n]*/g;

/** `a as b` → [a, b]; `default as b` → ['default', b]. */
function specifiers(list: string): [string, string][] {
  return list
    .split(',')
    .map((part) => part.trim().replace(/^type\s+/, ''))
    .filter(Boolean)
    .map((part) => {
      const [local = part, exported = local] = part.split(/\s+as\s+/);
      return [local, exported];
    });
}

/** What a barrel exports, name by name, and the modules (`export *`) that may export the rest; undefined when the module is not a barrel. */
function barrelExports(code: string): Barrel | undefined {
  const rest = code.replace(COMMENTS, '').replace(/["']use strict["'];?/, '');
  const named = new Map<string, string>();
  const imported = new Map<string, string>();
  const star: string[] = [];
  for (const [, keyword, clause = '', spec = ''] of rest.matchAll(FROM_STATEMENT)) {
    if (keyword === 'export' && clause === '*') star.push(spec);
    else if (keyword === 'export' && clause.startsWith('*')) named.set(clause.replace(/^\*\s*as\s+/, ''), spec);
    else if (keyword === 'export') for (const [, exported] of specifiers(clause.replace(/[{}]/g, ''))) named.set(exported, spec);
    else
      for (const local of clause.replace(/[{}]|\*\s*as\s+/g, '').split(','))
        imported.set(
          local
            .trim()
            .split(/\s+as\s+/)
            .pop() ?? '',
          spec,
        );
  }
  // Matched once the `… from` statements are gone: their braces look the same.
  const withoutFrom = rest.replace(FROM_STATEMENT, '');
  for (const [, list = ''] of withoutFrom.matchAll(LOCAL_EXPORT)) {
    for (const [local, exported] of specifiers(list)) {
      const spec = imported.get(local);
      if (spec === undefined) return undefined;
      named.set(exported, spec);
    }
  }
  const leftover = withoutFrom.replace(LOCAL_EXPORT, '').replace(SIDE_EFFECT_IMPORT, '').trim();
  return leftover === '' && (named.size > 0 || star.length > 0) ? { named, star } : undefined;
}

/** The names `importer` takes from `spec`; undefined when it takes them all (`* as`, `export *`) or the statement is not one this reads. */
function namesTaken(code: string, spec: string): string[] | undefined {
  const names: string[] = [];
  for (const [, , clause = '', from] of code.matchAll(FROM_STATEMENT)) {
    if (from !== spec) continue;
    const braces = /\{([^}]*)\}/.exec(clause);
    if (clause.includes('*') || !braces) {
      if (/^[\w$]+$/.test(clause)) names.push('default');
      else return undefined;
    } else {
      names.push(...specifiers(braces[1] ?? '').map(([imported]) => imported));
      if (/^[\w$]+\s*,/.test(clause)) names.push('default');
    }
  }
  return names;
}

/** The modules `id` needs: its imports, with each barrel replaced by the modules behind the names it takes. */
async function needs(graph: Graph, id: string): Promise<string[]> {
  if (!graph.imports(id).some((dep) => graph.barrel(dep))) return [...graph.imports(id)];
  const code = graph.code(id) ?? '';
  const specs = new Map<string, string>();
  for (const [, , , spec = ''] of code.matchAll(FROM_STATEMENT)) {
    const resolved = await graph.resolve(spec, id);
    if (resolved) specs.set(resolved, spec);
  }
  const result: string[] = [];
  for (const dep of graph.imports(id)) {
    const barrel = graph.barrel(dep);
    const spec = specs.get(dep);
    const names = barrel && spec !== undefined ? namesTaken(code, spec) : undefined;
    if (!barrel || !names) {
      result.push(dep);
      continue;
    }
    for (const name of names) {
      const from = barrel.named.get(name);
      const targets = from === undefined ? barrel.star : [from];
      for (const target of targets) {
        const resolved = await graph.resolve(target, dep);
        if (resolved) result.push(resolved);
      }
    }
  }
  return result;
}

/** What `roots` import, transitively, short of `skip`; `needsOf` is `needs`, read once per module for the three walks of a build. */
async function reach(needsOf: (id: string) => Promise<string[]>, roots: readonly string[], skip: ReadonlySet<string>): Promise<Set<string>> {
  const found = new Set<string>();
  const stack = roots.filter((id) => !skip.has(id));
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    if (found.has(id)) continue;
    found.add(id);
    for (const next of await needsOf(id)) if (!skip.has(next) && !found.has(next)) stack.push(next);
  }
  return found;
}

function once<T>(read: (id: string) => T): (id: string) => T {
  const seen = new Map<string, T>();
  return (id) => {
    if (!seen.has(id)) seen.set(id, read(id));
    return seen.get(id) as T;
  };
}

/**
 * A build plugin and the two sets it fills at buildEnd: `together`'s modules beyond the entries' that
 * none of `apart` needs, and those `apart` shares with them (for a chunk of their own, so those pages
 * do not download the rest). A root the build does not have fails it, so a renamed route cannot
 * quietly change what a page downloads.
 */
export function firstDownloads(root: string, roots: FirstDownloadRoots): FirstDownloads {
  const only = new Set<string>();
  const shared = new Set<string>();
  const plugin: Plugin = {
    name: 'parley-first-downloads',
    apply: 'build',
    async buildEnd() {
      const ids = [...this.getModuleIds()];
      const code = (id: string) => this.getModuleInfo(id)?.code ?? null;
      const graph: Graph = {
        code,
        imports: (id) => this.getModuleInfo(id)?.importedIds ?? [],
        barrel: once((id) => barrelExports(code(id) ?? '')),
        resolve: async (spec, importer) => (await this.resolve(spec, importer))?.id,
      };
      const needsOf = once((id) => needs(graph, id));
      const under = (files: readonly string[]) => files.map((file) => path.join(root, file));
      const [together, apart] = [under(roots.together), under(roots.apart)];
      const missing = [...together, ...apart].filter((id) => !ids.includes(id));
      if (missing.length > 0) throw new Error(`first downloads: the build has no ${missing.join(', ')}`);
      const entries = ids.filter((id) => this.getModuleInfo(id)?.isEntry);
      const entryModules = await reach(needsOf, entries, new Set());
      // What any page may load on demand from the entry besides the pages (the auth client, the toasts' host) is as apart as the listed pages.
      const pages = path.join(root, roots.pagesDir);
      const onDemand = [...entryModules].flatMap((id) => this.getModuleInfo(id)?.dynamicallyImportedIds ?? []).filter((id) => !id.startsWith(pages));
      const elsewhere = await reach(needsOf, [...apart, ...onDemand], entryModules);
      const wanted = await reach(needsOf, together, entryModules);
      only.clear();
      shared.clear();
      wanted.forEach((id) => (elsewhere.has(id) ? shared : only).add(id));
    },
  };
  return { plugin, together: only, shared };
}
