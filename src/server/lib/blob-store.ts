import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { BlobLedger, BlobOwner } from './blobs.repository.ts';
import type { BlobKind } from './blobs.table.ts';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-files.ts';

/**
 * Where every stored byte lives (recordings, their downloads, exports, avatars): files under
 * $DATA_DIR/blobs by default. Keys are opaque and generated here, never taken from a request, so
 * no path a client sends can reach the file system. Each write records its owner, kind and size in
 * the `blobs` table (blobs.repository.ts) and each delete forgets it, so an owner's storage used
 * and deleting all they own are one query each.
 */
export type BlobStore = {
  newKey: (extension: string) => string;
  /** The file behind a key (this adapter's; ffmpeg reads recordings by path). */
  pathOf: (key: string) => string;
  exists: (key: string) => Promise<boolean>;
  size: (key: string) => Promise<number>;
  createReadStream: (key: string, range?: { start: number; end: number }) => Readable;
  /** Deletes the blobs and their rows. */
  remove: (keys: readonly string[]) => Promise<void>;
  /** Deletes every blob the owner has (of these kinds, when given) and answers how many. */
  removeOwnedBy: (ownerId: string, kinds?: readonly BlobKind[]) => Promise<number>;
  /** The bytes the owner's blobs hold, every kind counted: their storage used. */
  usage: (ownerId: string) => Promise<number>;
  /** Every stored file's key and when it was last written (the start-up orphan sweep). */
  list: () => Promise<{ key: string; modifiedAt: Date }[]>;
  /** Moves a finished file (e.g. a completed upload) into the store as `owner`'s and returns its new key. */
  adopt: (sourcePath: string, extension: string, owner: BlobOwner) => Promise<string>;
  /**
   * The key of a file derived from `key` (the same id, another extension: a recording's download
   * in another format), so whoever owns `key` owns it too and deleting one deletes both.
   */
  siblingKey: (key: string, extension: string) => string;
  /**
   * Stores the file `write` makes at the path it is given, under `key`, as `owner`'s: written beside
   * it first and renamed into place, so a reader never sees half a file and a failed write leaves nothing.
   */
  produce: (key: string, owner: BlobOwner, write: (path: string) => Promise<void>) => Promise<void>;
};

const KEY_PATTERN = /^[0-9a-f]{2}\/[0-9a-f-]{36}\.[a-z0-9]{1,8}$/;

/** A key's "ab/<uuid>" part: what a file and its siblings (siblingKey) share. */
export const blobStem = (key: string): string => key.replace(/\.[a-z0-9]{1,8}$/, '');
/** The length of every stem this store names: two hex digits, a slash, a UUID. */
export const BLOB_STEM_LENGTH = 39;

const cleanExtension = (extension: string) =>
  extension
    .replace(/[^a-z0-9]/gi, '')
    .toLowerCase()
    .slice(0, 8) || 'bin';

export function createLocalBlobStore(dataDir: string, ledger: BlobLedger): BlobStore {
  const root = path.join(dataDir, 'blobs');
  const pathOf = (key: string) => {
    if (!KEY_PATTERN.test(key)) throw new Error(`invalid blob key ${key}`);
    return path.join(root, key);
  };
  const removeFiles = async (keys: readonly string[]) => {
    await Promise.all(keys.map((key) => fsp.rm(pathOf(key), { force: true })));
  };
  /** The row of a file now in place; a row that cannot be written takes the file with it (nothing stored uncounted). */
  const recordFile = async (key: string, owner: BlobOwner) => {
    try {
      await ledger.record(key, owner, (await fsp.stat(pathOf(key))).size);
    } catch (error) {
      await fsp.rm(pathOf(key), { force: true });
      throw error;
    }
  };
  return {
    newKey: (extension) => {
      const id = crypto.randomUUID();
      return `${id.slice(0, 2)}/${id}.${cleanExtension(extension)}`;
    },
    pathOf,
    exists: async (key) =>
      fsp.access(pathOf(key)).then(
        () => true,
        () => false,
      ),
    size: async (key) => (await fsp.stat(pathOf(key))).size,
    createReadStream: (key, range) => fs.createReadStream(pathOf(key), range),
    // The rows go first: a file whose delete failed is an orphan the start-up sweep removes, while a
    // row left without its file would count against its owner for ever.
    remove: async (keys) => {
      keys.forEach(pathOf);
      await ledger.forget(keys);
      await removeFiles(keys);
    },
    removeOwnedBy: async (ownerId, kinds) => {
      const keys = await ledger.forgetOwnedBy(ownerId, kinds);
      await removeFiles(keys.filter((key) => KEY_PATTERN.test(key)));
      return keys.length;
    },
    usage: ledger.usage,
    list: async () => {
      const keys: { key: string; modifiedAt: Date }[] = [];
      const shards = await fsp.readdir(root).catch(() => [] as string[]);
      for (const shard of shards) {
        const names = await fsp.readdir(path.join(root, shard)).catch(() => [] as string[]);
        for (const name of names) {
          const key = `${shard}/${name}`;
          // Only files this store named: anything else in the folder is not ours to judge.
          if (!KEY_PATTERN.test(key)) continue;
          const stats = await fsp.stat(path.join(root, key)).catch(() => undefined);
          if (stats?.isFile()) keys.push({ key, modifiedAt: stats.mtime });
        }
      }
      return keys;
    },
    adopt: async (sourcePath, extension, owner) => {
      const id = crypto.randomUUID();
      const key = `${id.slice(0, 2)}/${id}.${cleanExtension(extension)}`;
      const target = pathOf(key);
      await fsp.mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
      try {
        await fsp.rename(sourcePath, target); // same file system: atomic and instant
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        await fsp.copyFile(sourcePath, target);
        await fsp.rm(sourcePath, { force: true });
      }
      // Recordings are nobody else's to read, whatever mode the file arrived with.
      await fsp.chmod(target, PRIVATE_FILE_MODE);
      await recordFile(key, owner);
      return key;
    },
    siblingKey: (key, extension) => {
      pathOf(key);
      return `${blobStem(key)}.${cleanExtension(extension)}`;
    },
    produce: async (key, owner, write) => {
      const target = pathOf(key);
      await fsp.mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
      // Not a key's name, so list() and the orphan sweep never take a file still being written for one.
      const partial = `${target}.${crypto.randomUUID()}.part`;
      try {
        await write(partial);
        await fsp.chmod(partial, PRIVATE_FILE_MODE);
        await fsp.rename(partial, target);
        await recordFile(key, owner);
      } finally {
        await fsp.rm(partial, { force: true });
      }
    },
  };
}
