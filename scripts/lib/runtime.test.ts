import fs from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

type Manifest = { version?: string; engines?: { node?: string } | string[]; os?: string[]; cpu?: string[] };
const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, Manifest> };
// The module is plain JavaScript (it runs before node_modules exists); its one figure is read here.
const { NODE_VERSION } = (await import('./runtime.mjs' as string)) as { NODE_VERSION: string };

/** Whether a package's `os` or `cpu` list takes in this machine's (entries may be "!name"), as npm reads them. */
function takesIn(list: string[] | undefined, value: string): boolean {
  if (!list) return true;
  return list.some((entry) => !entry.startsWith('!')) ? list.includes(value) : !list.includes(`!${value}`);
}

/**
 * The locked packages installed on this machine whose engines.node leaves `version` out: npm warns
 * EBADENGINE for each at install. (Other platforms' packages, sharp's for 32-bit Windows among them,
 * are never installed here, and npm checks nothing of theirs.)
 */
function refusing(version: string): string[] {
  return Object.entries(lock.packages)
    .filter(([, manifest]) => takesIn(manifest.os, process.platform) && takesIn(manifest.cpu, process.arch))
    .flatMap(([where, manifest]) => {
      const range = manifest.engines && !Array.isArray(manifest.engines) ? manifest.engines.node : undefined;
      return range && !semver.satisfies(version, range) ? [`${where}@${manifest.version}: ${range}`] : [];
    });
}

describe('the Node Parley runs on', () => {
  it('every locked package runs on the oldest Node package.json allows, so an install there warns of none', () => {
    const oldest = semver.minVersion(pkg.engines.node)?.version;
    expect(oldest).toBeDefined();
    expect(refusing(oldest!)).toEqual([]);
  });

  it('the Node fetched where the machine has an older one is one package.json allows, and every locked package runs on it', () => {
    expect(semver.satisfies(NODE_VERSION, pkg.engines.node)).toBe(true);
    expect(refusing(NODE_VERSION)).toEqual([]);
  });
});
