import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BlobLedger, BlobOwner } from './blobs.repository.ts';
import type { BlobKind } from './blobs.table.ts';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-files.ts';

/** Key namespaces named by their owner's id rather than a random one (one blob per id). */
export type BlobNamespace = 'exports' | 'avatars';

/**
 * Where every stored byte lives (recordings, their downloads, exports, avatars), by key. Keys are
 * opaque and made here (random, a hash of an upload's id, or a namespace and a server-side id),
 * never taken from a request, so no path a client sends can reach the storage. Each write records
 * its owner, kind and size in the `blobs` table (blobs.repository.ts) and each delete forgets it,
 * so an owner's storage used and deleting all they own are one query each. Bytes go in and out as
 * streams (ranged reads included), so an object store can stand behind the same port.
 */
export type BlobStore = {
  /** A new random key (a recording's). */
  newKey: (extension: string) => string;
  /** The key of the one blob of `id` in a namespace (an export by its id, an avatar by its person's). */
  keyFor: (namespace: BlobNamespace, id: string, extension: string) => string;
  /**
   * The key a finished upload's bytes move to: the same for the same upload, so a process that ended
   * after the move can find them (uploads.plugin.ts). A recording's key like any other (siblings too).
   */
  uploadKey: (uploadId: string, extension: string) => string;
  /**
   * Runs `use` with a local file holding the blob's bytes, for tools that read files by path
   * (ffmpeg): the stored file itself on disk; on an object store a private temporary copy,
   * removed once `use` settles. `use` only reads the file.
   */
  withLocalFile: <T>(key: string, use: (path: string) => Promise<T>) => Promise<T>;
  exists: (key: string) => Promise<boolean>;
  size: (key: string) => Promise<number>;
  /** Size and when it was last written; undefined when nothing is stored under the key. */
  stat: (key: string) => Promise<{ bytes: number; modifiedAt: Date } | undefined>;
  createReadStream: (key: string, range?: { start: number; end: number }) => Readable;
  /** Stores `body` under `key` as `owner`'s (replacing what was there) and answers its size; a reader never sees half of it. */
  put: (key: string, body: Buffer | Readable, owner: BlobOwner) => Promise<number>;
  /** Deletes the blobs and their rows. */
  remove: (keys: readonly string[]) => Promise<void>;
  /** Deletes every blob the owner has (of these kinds, when given) and answers how many. */
  removeOwnedBy: (ownerId: string, kinds?: readonly BlobKind[]) => Promise<number>;
  /** The bytes the owner's blobs hold, every kind counted: their storage used. */
  usage: (ownerId: string) => Promise<number>;
  /** Every stored blob whose key starts with `prefix` (all when left out), with when it was last written (orphan sweeps). */
  list: (prefix?: string) => Promise<{ key: string; modifiedAt: Date }[]>;
  /** Moves a finished local file (e.g. a completed upload) into the store as `owner`'s and returns its new key; the file is gone after. */
  adopt: (sourcePath: string, extension: string, owner: BlobOwner) => Promise<string>;
  /** `adopt` under a given key (replacing what was there); a reader never sees half of it. */
  adoptAs: (key: string, sourcePath: string, owner: BlobOwner) => Promise<void>;
  /**
   * The key of a file derived from `key` (the same id, another extension: a recording's download
   * in another format), so whoever owns `key` owns it too and deleting one deletes both.
   */
  siblingKey: (key: string, extension: string) => string;
  /**
   * Stores the file `write` makes at the (local, temporary) path it is given, under `key`, as
   * `owner`'s, and answers its size: a reader never sees half a file and a failed write leaves nothing.
   */
  produce: (key: string, owner: BlobOwner, write: (path: string) => Promise<void>) => Promise<number>;
  /** The owner and kind of each of `keys` the store counts (those stored before it counted are left out). */
  ownersOf: (keys: readonly string[]) => Promise<Map<string, BlobOwner>>;
  /** Counts a blob stored before the store counted blobs as `owner`'s, at its stored size. */
  countExisting: (key: string, owner: BlobOwner) => Promise<void>;
  /** Uploads under way, counted against their owner's quota by their claims (rows of kind 'upload'). */
  uploads: UploadClaims;
};

/**
 * What an upload under way will take of its owner's storage, kept in the `blobs` table: so every
 * web process sees every other's uploads, and admissions are decided in one step per owner.
 */
export type UploadClaims = {
  /** Claims `bytes` for the upload when what else the owner has leaves that much within `limitBytes`; answers whether it did. */
  reserve: (uploadId: string, ownerId: string, bytes: number, limitBytes: number) => Promise<boolean>;
  /** What the owner's blobs and other uploads leave of `limitBytes` (this upload's own claim not counted). */
  roomLeft: (uploadId: string, ownerId: string, limitBytes: number) => Promise<number>;
  /** The uploads are finished or gone: their claims end. */
  release: (uploadIds: readonly string[]) => Promise<void>;
  /** Ends the claims of uploads that began before `before` (expired; their files may be gone already). */
  releaseBefore: (before: Date) => Promise<number>;
};

/** The claims of uploads under way, whatever adapter keeps bytes (the upload store keeps theirs). */
export function uploadClaims(ledger: BlobLedger): UploadClaims {
  const keyOf = (uploadId: string) => `uploads/${uploadId}`;
  return {
    reserve: (uploadId, ownerId, bytes, limitBytes) => ledger.reserve(keyOf(uploadId), ownerId, bytes, limitBytes),
    roomLeft: (uploadId, ownerId, limitBytes) => ledger.roomLeft(ownerId, limitBytes, keyOf(uploadId)),
    release: (uploadIds) => ledger.forget(uploadIds.map(keyOf)),
    releaseBefore: ledger.forgetUploadsBefore,
  };
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const SHARD_KEY = /^[0-9a-f]{2}\/[0-9a-f-]{36}\.[a-z0-9]{1,8}$/;
const KEY_PATTERN = new RegExp(`^(?:[0-9a-f]{2}/[0-9a-f-]{36}|(?:exports|avatars)/${UUID})\\.[a-z0-9]{1,8}$`);
const NAMESPACES: readonly BlobNamespace[] = ['exports', 'avatars'];

/** Whether a key is a recording's (newKey, uploadKey) or one of its downloads' (siblingKey), not a namespace's. */
export const isRecordingKey = (key: string): boolean => SHARD_KEY.test(key);
/** A key's "ab/<uuid>" part: what a file and its siblings (siblingKey) share. */
export const blobStem = (key: string): string => key.replace(/\.[a-z0-9]{1,8}$/, '');
/** The length of every stem this store names: two hex digits, a slash, a UUID. */
export const BLOB_STEM_LENGTH = 39;

const cleanExtension = (extension: string) =>
  extension
    .replace(/[^a-z0-9]/gi, '')
    .toLowerCase()
    .slice(0, 8) || 'bin';

/** Throws unless `key` is one this store names (so no other name reaches a file system or a bucket). */
export function checkBlobKey(key: string): string {
  if (!KEY_PATTERN.test(key)) throw new Error(`invalid blob key ${key}`);
  return key;
}

/** Whether `key` is one this store names (listings skip anything else). */
export const isBlobKey = (key: string): boolean => KEY_PATTERN.test(key);

/** A new random key (recordings). */
export function newBlobKey(extension: string): string {
  const id = crypto.randomUUID();
  return `${id.slice(0, 2)}/${id}.${cleanExtension(extension)}`;
}

/** Upload ids are @tus/server's (hex). */
const UPLOAD_ID = /^[0-9a-f]{16,64}$/i;
/** Whether `id` can be an upload's (uploadBlobKey takes it). */
export const isUploadId = (id: string): boolean => UPLOAD_ID.test(id);

/**
 * A finished upload's key: a UUID-shaped hash of its id, so it passes every check a random key does
 * (its shard, its siblings, BLOB_STEM_LENGTH) and no upload's key is another's.
 */
export function uploadBlobKey(uploadId: string, extension: string): string {
  if (!UPLOAD_ID.test(uploadId)) throw new Error(`invalid upload id ${uploadId}`);
  const hex = crypto.createHash('sha256').update(`upload:${uploadId}`).digest('hex');
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
  return `${id.slice(0, 2)}/${id}.${cleanExtension(extension)}`;
}

/** The keys every adapter names the same way (the ledger's rows outlive a change of adapter only by key). */
export const blobKeys = {
  newKey: newBlobKey,
  uploadKey: uploadBlobKey,
  keyFor: (namespace: BlobNamespace, id: string, extension: string) => checkBlobKey(`${namespace}/${id.toLowerCase()}.${cleanExtension(extension)}`),
  siblingKey: (key: string, extension: string) => {
    if (!SHARD_KEY.test(key)) throw new Error(`invalid blob key ${key}`);
    return `${blobStem(key)}.${cleanExtension(extension)}`;
  },
};

/** The file the embedded adapter keeps `key` in under `dataDir` (its tests look at files directly). */
export function localBlobPath(dataDir: string, key: string): string {
  checkBlobKey(key);
  return NAMESPACES.some((namespace) => key.startsWith(`${namespace}/`)) ? path.join(dataDir, key) : path.join(dataDir, 'blobs', key);
}

/**
 * The embedded adapter: files under the data folder. Random keys under $DATA_DIR/blobs; the
 * namespaces in $DATA_DIR/exports and $DATA_DIR/avatars, where those files lived before the store
 * kept them, so an installation's files stay where they are.
 */
export function createLocalBlobStore(dataDir: string, ledger: BlobLedger): BlobStore {
  const root = path.join(dataDir, 'blobs');
  const pathOf = (key: string) => localBlobPath(dataDir, key);
  const removeFiles = async (keys: readonly string[]) => {
    await Promise.all(keys.map((key) => fsp.rm(pathOf(key), { force: true })));
  };
  /** The row of a file now in place; a row that cannot be written takes the file with it (nothing stored uncounted). */
  const recordFile = async (key: string, owner: BlobOwner): Promise<number> => {
    try {
      const { size } = await fsp.stat(pathOf(key));
      await ledger.record(key, owner, size);
      return size;
    } catch (error) {
      await fsp.rm(pathOf(key), { force: true });
      throw error;
    }
  };
  /** Writes beside the target and renames into place (see produce). */
  const produce = async (key: string, owner: BlobOwner, write: (path: string) => Promise<void>): Promise<number> => {
    const target = pathOf(key);
    await fsp.mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
    // Not a key's name, so list() and the orphan sweep never take a file still being written for one.
    const partial = `${target}.${crypto.randomUUID()}.part`;
    try {
      await write(partial);
      await fsp.chmod(partial, PRIVATE_FILE_MODE);
      await fsp.rename(partial, target);
      return await recordFile(key, owner);
    } finally {
      await fsp.rm(partial, { force: true });
    }
  };
  const adoptAs = async (key: string, sourcePath: string, owner: BlobOwner): Promise<void> => {
    const target = pathOf(key);
    await fsp.mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
    try {
      await fsp.rename(sourcePath, target); // same file system: atomic and instant
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      // Copied beside the target first: a process that ends mid-copy leaves no half file under the key.
      const partial = `${target}.${crypto.randomUUID()}.part`;
      try {
        await fsp.copyFile(sourcePath, partial);
        await fsp.rename(partial, target);
      } finally {
        await fsp.rm(partial, { force: true });
      }
      await fsp.rm(sourcePath, { force: true });
    }
    // Recordings are nobody else's to read, whatever mode the file arrived with.
    await fsp.chmod(target, PRIVATE_FILE_MODE);
    // Kept even when its row cannot be written: the file it came from is gone (a hand-over counts it again).
    await ledger.record(key, owner, (await fsp.stat(target)).size);
  };
  /** The keys of the files in one folder of the store (a shard or a namespace). */
  const keysIn = async (folder: string, out: { key: string; modifiedAt: Date }[]) => {
    const base = NAMESPACES.includes(folder as BlobNamespace) ? dataDir : root;
    const names = await fsp.readdir(path.join(base, folder)).catch(() => [] as string[]);
    for (const name of names) {
      const key = `${folder}/${name}`;
      // Only files this store named: anything else in the folder is not ours to judge.
      if (!KEY_PATTERN.test(key)) continue;
      const stats = await fsp.stat(path.join(base, key)).catch(() => undefined);
      if (stats?.isFile()) out.push({ key, modifiedAt: stats.mtime });
    }
  };
  return {
    ...blobKeys,
    withLocalFile: async (key, use) => {
      await fsp.access(pathOf(key)); // a missing blob fails here (ENOENT), as on an object store, not in the tool
      return use(pathOf(key));
    },
    exists: async (key) =>
      fsp.access(pathOf(key)).then(
        () => true,
        () => false,
      ),
    size: async (key) => (await fsp.stat(pathOf(key))).size,
    stat: async (key) => {
      const stats = await fsp.stat(pathOf(key)).catch(() => undefined);
      return stats?.isFile() ? { bytes: stats.size, modifiedAt: stats.mtime } : undefined;
    },
    createReadStream: (key, range) => fs.createReadStream(pathOf(key), range),
    put: (key, body, owner) =>
      produce(key, owner, (file) => pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, fs.createWriteStream(file, { mode: PRIVATE_FILE_MODE }))),
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
    list: async (prefix = '') => {
      const keys: { key: string; modifiedAt: Date }[] = [];
      const shards = await fsp.readdir(root).catch(() => [] as string[]);
      for (const folder of [...shards.filter((name) => /^[0-9a-f]{2}$/.test(name)), ...NAMESPACES]) {
        // A folder the prefix rules out is not read at all.
        if (!`${folder}/`.startsWith(prefix) && !prefix.startsWith(`${folder}/`)) continue;
        await keysIn(folder, keys);
      }
      return keys.filter((blob) => blob.key.startsWith(prefix));
    },
    adopt: async (sourcePath, extension, owner) => {
      const key = newBlobKey(extension);
      await adoptAs(key, sourcePath, owner);
      return key;
    },
    adoptAs,
    produce,
    ownersOf: ledger.ownersOf,
    countExisting: async (key, owner) => {
      const stored = await fsp.stat(pathOf(key)).catch(() => undefined);
      if (stored?.isFile()) await ledger.record(key, owner, stored.size);
    },
    uploads: uploadClaims(ledger),
  };
}
