import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';

/** One entry of the archive: JSON, or a file copied from disk as it is. */
export type ArchiveEntry = { name: string; json: unknown } | { name: string; file: string };

/**
 * Writes a zip to `target` through a temporary name, so a half-written archive is never offered:
 * the JSON entries deflated, the recordings (already compressed audio) stored. `onEntry` hears of
 * each entry as it is added (the job's progress).
 */
export async function writeArchive(target: string, entries: readonly ArchiveEntry[], onEntry: (done: number) => void, signal: AbortSignal): Promise<number> {
  const partial = `${target}.partial`;
  const zip = new yazl.ZipFile();
  const written = pipeline(zip.outputStream, fs.createWriteStream(partial, { mode: 0o600 }), { signal });
  entries.forEach((entry, index) => {
    if ('json' in entry) zip.addBuffer(Buffer.from(JSON.stringify(entry.json, null, 2)), entry.name);
    else zip.addFile(entry.file, entry.name, { compress: false });
    onEntry(index + 1);
  });
  zip.end();
  try {
    await written;
  } catch (error) {
    await fsp.rm(partial, { force: true });
    throw error;
  }
  await fsp.rename(partial, target);
  return (await fsp.stat(target)).size;
}
