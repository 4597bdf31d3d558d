import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { FileStore } from '@tus/file-store';
import { ERRORS, Upload, type Locker } from '@tus/utils';
import { z } from 'zod';
import type { BlobStore } from '#server/lib/blob-store.ts';
import type { BlobOwner } from '#server/lib/blobs.repository.ts';
import { makePrivate } from '#server/lib/private-files.ts';
import type { UploadStore } from './upload-store.ts';

/** An upload's .json info file as FileStore writes it, plus `finished` once its audio was handed over. */
const UploadInfoSchema = z.object({
  id: z.string(),
  size: z.number().int().nonnegative().optional(),
  metadata: z.record(z.string(), z.string().nullable()).optional(),
  creation_date: z.string().optional(),
  finished: z.boolean().optional(),
});
type UploadInfo = z.infer<typeof UploadInfoSchema>;

/** Upload ids are @tus/server's (hex); anything else in the folder is not an upload. */
const ID = /^[0-9a-f]{16,64}$/i;

/**
 * @tus/file-store, plus:
 * - an fsync after every write: the offset a PATCH acknowledges is then on disk, so the browser may
 *   drop those bytes from IndexedDB and a power cut loses nothing it was told is safe;
 * - its files (the audio and its .json metadata) made 0600 at creation: FileStore opens them with
 *   the process's default mode;
 * - a finished upload remembered until it expires: its audio has moved into the blob store, but its
 *   info file stays, marked finished, so a client whose answer to the final PATCH was lost learns
 *   from HEAD (or a repeated PATCH) that every byte arrived instead of starting a second upload;
 * - the expiration extension (UPLOAD_EXPIRY_HOURS from creation), swept by `sweepExpired`.
 */
// @ts-expect-error FileStore declares checkOrCreateDirectory private; it is replaced on purpose (below).
export class DurableFileStore extends FileStore implements UploadStore {
  private readonly root: string;
  /** The per-upload locks tus takes while a request works on an upload (uploads.plugin.ts hands it to the Server), so `discard` can take one too. */
  readonly locker: Locker;
  /** Told of every upload finished or gone (its claim on its owner's quota ends). */
  private readonly ended: (id: string) => Promise<void>;

  constructor(options: { directory: string; expiryMs: number; locker: Locker; ended?: (id: string) => Promise<void> }) {
    super({ directory: options.directory, expirationPeriodInMilliseconds: options.expiryMs });
    this.root = options.directory;
    this.locker = options.locker;
    this.ended = options.ended ?? (async () => {});
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

  /** A finished upload answers with its whole length as its offset: its bytes are no longer here. */
  override async getUpload(id: string): Promise<Upload> {
    const info = await this.info(id);
    const whole = (known: UploadInfo) =>
      new Upload({ id, size: known.size, offset: known.size ?? 0, metadata: known.metadata, creation_date: known.creation_date });
    if (info?.finished) return whole(info);
    try {
      return await super.getUpload(id);
    } catch (error) {
      // Every byte arrived and the file is being handed over: tus finishes an upload (moveInto, then
      // markFinished) after it lets go of the upload's lock, so a retried PATCH or a HEAD can come
      // in between. It hears that all arrived (not 410 Gone, which a client reads as the end).
      if (error === ERRORS.FILE_NO_LONGER_EXISTS && info?.size !== undefined) return whole(info);
      throw error;
    }
  }

  /** The finished upload's file moves into the blob store (a rename on the same disk). */
  async moveInto(blobs: BlobStore, id: string, extension: string, owner: BlobOwner): Promise<string> {
    if (!ID.test(id)) throw new Error(`invalid upload id ${id}`);
    const key = blobs.uploadKey(id, extension);
    await blobs.adoptAs(key, path.join(this.root, id), owner);
    return key;
  }

  /** Whether this upload is finished (its audio handed over), for the repeated final PATCH. */
  async isFinished(id: string): Promise<boolean> {
    return ID.test(id) && (await this.info(id))?.finished === true;
  }

  /** Remembers that every byte of the upload arrived and was handed over (the audio file itself is gone). */
  async markFinished(upload: Upload): Promise<void> {
    const info = await this.info(upload.id);
    if (!info) return;
    const file = path.join(this.root, `${upload.id}.json`);
    await fsp.writeFile(file, JSON.stringify({ ...info, size: upload.offset, finished: true }), { mode: 0o600 });
    await fsp.rm(path.join(this.root, upload.id), { force: true });
    await this.ended(upload.id);
  }

  /**
   * Cancels an upload: its bytes and its info go, so any further request for it answers 404. Taking
   * its lock first asks a PATCH writing to it (in any process, with the Redis locker) to stop (tus cancels that request
   * after its drain time), so it is answered now rather than left writing into a deleted file.
   */
  async discard(id: string): Promise<void> {
    if (!ID.test(id)) return;
    const lock = this.locker.newLock(id);
    // A lock not had in time (a request that never lets go) does not keep the files: they go anyway.
    const locked = await lock
      .lock(new AbortController().signal, () => {})
      .then(
        () => true,
        () => false,
      );
    try {
      await Promise.all([fsp.rm(path.join(this.root, id), { force: true }), fsp.rm(path.join(this.root, `${id}.json`), { force: true })]);
      await this.ended(id);
    } finally {
      if (locked) await lock.unlock();
    }
  }

  /** The bytes an unfinished upload holds so far (0 when it has none or is gone). */
  async bytesOf(id: string): Promise<number> {
    if (!ID.test(id)) return 0;
    return fsp.stat(path.join(this.root, id)).then(
      (stats) => stats.size,
      () => 0,
    );
  }

  /**
   * Deletes every upload (finished or not) created before `now` less the expiry period, but those in
   * `keep`; answers the ids of those that expired unfinished, whose meetings never got their audio.
   */
  async sweepExpired(now: Date, keep: ReadonlySet<string> = new Set()): Promise<string[]> {
    const expired: string[] = [];
    for (const { id, info } of await this.uploads()) {
      const created = info?.creation_date ? Date.parse(info.creation_date) : NaN;
      if (!info || keep.has(id) || Number.isNaN(created) || created + this.getExpiration() >= now.getTime()) continue;
      await this.discard(id);
      if (!info.finished) expired.push(id);
    }
    return expired;
  }

  /**
   * Start-up clean-up: audio with no info file (a crash between the two writes, or an info file
   * deleted) and unfinished uploads no meeting waits on go, once older than `before` (another
   * process may be creating one right now: it writes the audio file, then its info); answers how many.
   */
  async sweepOrphans(wanted: ReadonlySet<string>, before: Date): Promise<number> {
    let removed = 0;
    for (const { id, info } of await this.uploads()) {
      if (info?.finished || (info && wanted.has(id))) continue;
      const touched = await Promise.all(
        [id, `${id}.json`].map((name) =>
          fsp.stat(path.join(this.root, name)).then(
            (s) => s.mtimeMs,
            () => 0,
          ),
        ),
      );
      if (Math.max(...touched) >= before.getTime()) continue;
      await this.discard(id);
      removed += 1;
    }
    return removed;
  }

  /** Uploads still under way (unfinished, with their info): a meeting waiting on any other upload waits on nothing. */
  async unfinished(): Promise<Set<string>> {
    return new Set((await this.uploads()).filter(({ info }) => info && !info.finished).map(({ id }) => id));
  }

  /** Every upload in the folder by id, with its info when it has readable info. */
  private async uploads(): Promise<{ id: string; info: UploadInfo | undefined }[]> {
    const names = await fsp.readdir(this.root).catch(() => [] as string[]); // no folder yet: no uploads
    const ids = new Set(names.map((name) => name.replace(/\.json$/, '')).filter((id) => ID.test(id)));
    return Promise.all([...ids].map(async (id) => ({ id, info: await this.info(id) })));
  }

  private async info(id: string): Promise<UploadInfo | undefined> {
    try {
      const parsed = UploadInfoSchema.safeParse(JSON.parse(await fsp.readFile(path.join(this.root, `${id}.json`), 'utf8')));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined; // no info file (or a half-written one): an upload without readable info, as the callers expect
    }
  }
}
