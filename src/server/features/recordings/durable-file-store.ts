import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { FileStore } from '@tus/file-store';
import type { Upload } from '@tus/utils';
import { makePrivate } from '#server/lib/private-files.ts';

/**
 * @tus/file-store, plus an fsync after every write: the offset a PATCH acknowledges is then on
 * disk, so the browser may drop those bytes from IndexedDB and a power cut loses nothing it was
 * told is safe. Its files (the audio and its .json metadata) are made 0600 at creation: FileStore
 * opens them with the process's default mode.
 */
// @ts-expect-error FileStore declares checkOrCreateDirectory private; it is replaced on purpose (below).
export class DurableFileStore extends FileStore {
  private readonly root: string;

  constructor(options: { directory: string }) {
    super(options);
    this.root = options.directory;
  }

  /**
   * FileStore creates its directory from the constructor without waiting and throws from a
   * callback if that fails (an uncaught exception). The uploads plugin creates the directory, and
   * awaits it, before constructing the store, so this does nothing.
   */
  override checkOrCreateDirectory(): void {}

  override async create(upload: Upload): Promise<Upload> {
    const created = await super.create(upload);
    makePrivate(path.join(this.root, upload.id));
    makePrivate(path.join(this.root, `${upload.id}.json`));
    return created;
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const newOffset = await super.write(readable, id, offset);
    const handle = await fsp.open(path.join(this.root, id), 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    return newOffset;
  }
}
