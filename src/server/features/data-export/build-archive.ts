import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';

/**
 * One entry of the archive: JSON; a document made when its turn comes (a meeting as Markdown); or
 * stored bytes copied as they are (opened when their turn comes).
 */
export type ArchiveEntry = { name: string; json: unknown } | { name: string; render: () => Promise<Buffer> } | { name: string; open: () => Readable };

/**
 * Writes a zip to `target`: the JSON entries deflated, the recordings (already compressed audio)
 * stored, each opened only when the archive reaches it. `onEntry` hears of each entry as it is
 * added (the job's progress). The caller writes `target` beside its final place (the blob store's
 * produce), so a half-written archive is never offered.
 */
export async function writeArchive(target: string, entries: readonly ArchiveEntry[], onEntry: (done: number) => void, signal: AbortSignal): Promise<void> {
  const zip = new yazl.ZipFile();
  const written = pipeline(zip.outputStream, fs.createWriteStream(target, { mode: 0o600 }), { signal });
  entries.forEach((entry, index) => {
    if ('json' in entry) zip.addBuffer(Buffer.from(JSON.stringify(entry.json, null, 2)), entry.name);
    else if ('render' in entry)
      zip.addReadStreamLazy(entry.name, { compress: true }, (done) =>
        // A failed rendering fails this stream, and with it the archive (the job retries it).
        done(
          null,
          Readable.from(
            (async function* () {
              yield await entry.render();
            })(),
          ),
        ),
      );
    else zip.addReadStreamLazy(entry.name, { compress: false }, (done) => done(null, entry.open()));
    onEntry(index + 1);
  });
  zip.end();
  await written;
}
