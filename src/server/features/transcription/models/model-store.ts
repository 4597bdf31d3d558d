import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { MODEL_CATALOG, type AsrLoader, type CatalogEntry, type ModelKind } from './catalog.ts';

/**
 * Installed models live in $DATA_DIR/models/<name>/: the model's files side by side and a
 * manifest.json written last, so a folder without a valid manifest is never taken for a model.
 * Downloads are staged in `.partial-*` folders beside them and renamed into place whole.
 */

export const MANIFEST_FILE = 'manifest.json';
export const CHECKSUMS_FILE = 'checksums.json';
export const PARTIAL_PREFIX = '.partial-';

const AsrLoaderSchema: z.ZodType<AsrLoader> = z.discriminatedUnion('type', [
  z.object({ type: z.enum(['nemo_transducer', 'transducer']), encoder: z.string(), decoder: z.string(), joiner: z.string(), tokens: z.string() }),
  z.object({ type: z.literal('whisper'), encoder: z.string(), decoder: z.string(), tokens: z.string(), language: z.string().optional() }),
  z.object({ type: z.literal('sense_voice'), model: z.string(), tokens: z.string() }),
]);

const ModelManifestSchema = z.object({
  name: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/),
  kind: z.enum(['asr', 'vad', 'speaker-segmentation', 'speaker-embedding']),
  source: z.string(),
  /** SHA-256 and size of what was downloaded (the archive or the single file). */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.number().int().nonnegative(),
  /** `pinned`: matched the catalog's published checksum; `first-download`: trusted and recorded then. */
  checksum: z.enum(['pinned', 'first-download']),
  installedAt: z.string(),
  files: z.array(z.object({ path: z.string(), bytes: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/) })).min(1),
  asr: AsrLoaderSchema.optional(),
});

export type ModelManifest = z.infer<typeof ModelManifestSchema>;

export type InstalledModel = { dir: string; manifest: ModelManifest };

export const modelDir = (modelsDir: string, name: string): string => path.join(modelsDir, name);

/** The manifest of an installed model, or undefined when the folder is absent or not a whole model. */
export function readInstalledModel(modelsDir: string, name: string): InstalledModel | undefined {
  const dir = modelDir(modelsDir, name);
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, MANIFEST_FILE), 'utf8');
  } catch {
    return undefined; // no manifest: not a whole model (a download in progress, or never installed)
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined; // a damaged manifest: not a whole model, as above
  }
  const parsed = ModelManifestSchema.safeParse(json);
  return parsed.success && parsed.data.name === name ? { dir, manifest: parsed.data } : undefined;
}

/** Every whole model under modelsDir (staging folders and stray files are not models). */
export function listInstalledModels(modelsDir: string, kind?: ModelKind): InstalledModel[] {
  let names: string[];
  try {
    names = fs
      .readdirSync(modelsDir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => e.name);
  } catch {
    return []; // no models folder yet: no models
  }
  return names
    .sort()
    .map((name) => readInstalledModel(modelsDir, name))
    .filter((m): m is InstalledModel => m !== undefined && (kind === undefined || m.manifest.kind === kind));
}

/** Of the installed models of `kind` that `accept` takes, the one the catalog lists first (a model it does not list comes last). */
export function preferredInstalledModel(
  modelsDir: string,
  kind: ModelKind,
  accept: (model: InstalledModel) => boolean = () => true,
): InstalledModel | undefined {
  const rank = (model: InstalledModel) => {
    const index = MODEL_CATALOG.findIndex((entry) => entry.name === model.manifest.name);
    return index === -1 ? MODEL_CATALOG.length : index;
  };
  return listInstalledModels(modelsDir, kind)
    .filter(accept)
    .sort((a, b) => rank(a) - rank(b))[0];
}

/** One installation of a model: fetched again, it is another (for host processes and load verdicts). */
export const installKey = (model: InstalledModel): string => `${model.manifest.name}@${model.manifest.installedAt}`;

/**
 * What is wrong with an installed model's files on disk (a file deleted or truncated since), or
 * undefined when each is there at the size the manifest recorded. Sizes, not hashes: this runs on
 * every availability check and the large models are hundreds of megabytes.
 */
export function findDamage(model: InstalledModel): string | undefined {
  for (const file of model.manifest.files) {
    let size: number;
    try {
      size = fs.statSync(path.join(model.dir, file.path)).size;
    } catch {
      return `${file.path} is missing`;
    }
    if (size !== file.bytes) return `${file.path} has ${size} bytes, ${file.bytes} were installed`;
  }
  return undefined;
}

export function writeManifest(dir: string, manifest: ModelManifest): void {
  fs.writeFileSync(path.join(dir, MANIFEST_FILE), `${JSON.stringify(ModelManifestSchema.parse(manifest), null, 2)}\n`);
}

const ChecksumsSchema = z.record(z.string(), z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/), bytes: z.number().int(), recordedAt: z.string() }));
export type RecordedChecksums = z.infer<typeof ChecksumsSchema>;

/** The checksums recorded at first download of models the catalog publishes none for. */
export function readRecordedChecksums(modelsDir: string): RecordedChecksums {
  try {
    const parsed = ChecksumsSchema.safeParse(JSON.parse(fs.readFileSync(path.join(modelsDir, CHECKSUMS_FILE), 'utf8')));
    return parsed.success ? parsed.data : {};
  } catch {
    return {}; // none recorded yet (or unreadable): the next first download records again
  }
}

export function recordChecksum(modelsDir: string, name: string, value: { sha256: string; bytes: number }): void {
  const all = readRecordedChecksums(modelsDir);
  all[name] = { ...value, recordedAt: new Date().toISOString() };
  const file = path.join(modelsDir, CHECKSUMS_FILE);
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(all, null, 2)}\n`);
  fs.renameSync(temp, file);
}

/** The checksum a download of this entry must have: the published one, else the one recorded at first download. */
export function expectedChecksum(
  modelsDir: string,
  entry: CatalogEntry,
): { sha256: string; bytes: number | null; source: 'pinned' | 'first-download' } | undefined {
  if (entry.sha256) return { sha256: entry.sha256, bytes: entry.bytes, source: 'pinned' };
  const recorded = readRecordedChecksums(modelsDir)[entry.name];
  return recorded ? { sha256: recorded.sha256, bytes: recorded.bytes, source: 'first-download' } : undefined;
}

/** Removes an installed model: renamed aside first, so a removal cut short never leaves half a model. */
export async function removeInstalledModel(modelsDir: string, name: string): Promise<boolean> {
  const dir = modelDir(modelsDir, name);
  if (!fs.existsSync(dir)) return false;
  const aside = path.join(modelsDir, `${PARTIAL_PREFIX}removing-${name}-${process.pid}-${Date.now()}`);
  await fs.promises.rename(dir, aside);
  await fs.promises.rm(aside, { recursive: true, force: true });
  return true;
}
