import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3ServiceException, type S3Client } from '@aws-sdk/client-s3';
import { Upload as S3Upload } from '@aws-sdk/lib-storage';
import { DataStore, ERRORS, Upload, type Locker } from '@tus/utils';
import { z } from 'zod';
import type { BlobStore } from '#server/lib/blob-store.ts';
import type { BlobOwner } from '#server/lib/blobs.repository.ts';
import type { S3Settings } from '#server/lib/s3-blob-store.ts';
import type { UploadStore } from './upload-store.ts';

/** An upload's info object: what tus knows of it, the size of each piece stored so far, and whether it was handed over. */
const InfoSchema = z.object({
  id: z.string(),
  size: z.number().int().nonnegative().optional(),
  metadata: z.record(z.string(), z.string().nullable()).optional(),
  creation_date: z.string(),
  pieces: z.array(z.number().int().nonnegative()),
  finished: z.boolean().optional(),
});
type Info = z.infer<typeof InfoSchema>;

/** Upload ids are @tus/server's (hex); anything else is not an upload. */
const ID = /^[0-9a-f]{16,64}$/i;
/**
 * The most pieces (PATCH requests that brought bytes) one upload may have: a live recording sends one
 * every few seconds (eight hours at one every 5 s is 5,760), and each is an object to read back.
 */
const MAX_PIECES = 20_000;
const PART_BYTES = 8 * 1024 * 1024;

const isMissing = (error: unknown) =>
  error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);

/**
 * Uploads under way in the object store, so any web process can take the next PATCH of any upload
 * and no web process's disk holds a recording. Each PATCH's bytes become one object (a multipart
 * upload of a few 8 MB parts in memory at a time when it is large), then the upload's info object
 * records the new offset: an offset is acknowledged only once S3 has stored its bytes (the
 * equivalent of the disk store's fsync). A finished upload's pieces are streamed, one after
 * another, into a single multipart upload in the blob store (moveInto): never whole in memory nor
 * on local disk. Keys: `<prefix>uploads/<id>.info` and `<prefix>uploads/<id>/<piece number>`.
 */
export class S3UploadStore extends DataStore implements UploadStore {
  readonly locker: Locker;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly root: string;
  private readonly expiryMs: number;
  private readonly ended: (id: string) => Promise<void>;

  constructor(options: { client: S3Client; settings: S3Settings; expiryMs: number; locker: Locker; ended?: (id: string) => Promise<void> }) {
    super();
    this.locker = options.locker;
    this.client = options.client;
    this.bucket = options.settings.bucket;
    this.root = `${options.settings.prefix}uploads/`;
    this.expiryMs = options.expiryMs;
    this.ended = options.ended ?? (async () => {});
    this.extensions = ['creation', 'creation-with-upload', 'creation-defer-length', 'termination', 'expiration'];
  }

  override getExpiration(): number {
    return this.expiryMs;
  }

  override async create(upload: Upload): Promise<Upload> {
    upload.creation_date = new Date().toISOString();
    await this.saveInfo({ id: upload.id, size: upload.size, metadata: upload.metadata, creation_date: upload.creation_date, pieces: [] });
    return upload;
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const info = await this.infoOrThrow(id);
    const stored = sum(info.pieces);
    if (offset !== stored) throw ERRORS.INVALID_OFFSET;
    if (info.pieces.length >= MAX_PIECES) throw { status_code: 400, body: 'This upload was sent in too many pieces.' };
    let bytes = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done(null, chunk);
      },
    });
    const body = new PassThrough();
    const flowing = pipeline(readable, counted, body);
    // A piece is stored under its number: a PATCH that failed before its info was saved is overwritten by the next.
    await Promise.all([
      new S3Upload({
        client: this.client,
        params: { Bucket: this.bucket, Key: this.pieceKey(id, info.pieces.length), Body: body },
        partSize: PART_BYTES,
        queueSize: 2,
      }).done(),
      flowing,
    ]);
    if (bytes === 0) return offset;
    await this.saveInfo({ ...info, pieces: [...info.pieces, bytes] });
    return offset + bytes;
  }

  override async getUpload(id: string): Promise<Upload> {
    const info = await this.infoOrThrow(id);
    const offset = info.finished ? (info.size ?? 0) : sum(info.pieces);
    return new Upload({ id, size: info.size, offset, metadata: info.metadata ?? undefined, creation_date: info.creation_date });
  }

  override async declareUploadLength(id: string, length: number): Promise<void> {
    const info = await this.infoOrThrow(id);
    await this.saveInfo({ ...info, size: length });
  }

  override async remove(id: string): Promise<void> {
    await this.deleteUpload(id);
    await this.ended(id);
  }

  async isFinished(id: string): Promise<boolean> {
    return ID.test(id) && (await this.info(id))?.finished === true;
  }

  async markFinished(upload: Upload): Promise<void> {
    const info = await this.info(upload.id);
    if (!info) return;
    await this.deletePieces(upload.id);
    await this.saveInfo({ ...info, size: upload.offset, pieces: [], finished: true });
    await this.ended(upload.id);
  }

  async discard(id: string): Promise<void> {
    if (!ID.test(id)) return;
    const lock = this.locker.newLock(id);
    // A lock not had in time (a request that never lets go) does not keep the bytes: they go anyway.
    const locked = await lock
      .lock(new AbortController().signal, () => {})
      .then(
        () => true,
        () => false,
      );
    try {
      await this.deleteUpload(id);
      await this.ended(id);
    } finally {
      if (locked) await lock.unlock();
    }
  }

  async bytesOf(id: string): Promise<number> {
    if (!ID.test(id)) return 0;
    const info = await this.info(id);
    return info && !info.finished ? sum(info.pieces) : 0;
  }

  async sweepExpired(now: Date, keep: ReadonlySet<string> = new Set()): Promise<string[]> {
    const expired: string[] = [];
    for (const { id } of await this.uploads()) {
      if (keep.has(id)) continue;
      const info = await this.info(id);
      if (!info || Date.parse(info.creation_date) + this.expiryMs >= now.getTime()) continue;
      await this.discard(id);
      if (!info.finished) expired.push(id);
    }
    return expired;
  }

  async sweepOrphans(wanted: ReadonlySet<string>, before: Date): Promise<number> {
    let removed = 0;
    for (const { id, modifiedAt } of await this.uploads()) {
      const info = await this.info(id);
      if (info?.finished || (info && wanted.has(id)) || modifiedAt >= before) continue;
      await this.discard(id);
      removed += 1;
    }
    return removed;
  }

  async unfinished(): Promise<Set<string>> {
    const ids = new Set<string>();
    for (const { id } of await this.uploads()) {
      const info = await this.info(id);
      if (info && !info.finished) ids.add(id);
    }
    return ids;
  }

  async moveInto(blobs: BlobStore, id: string, extension: string, owner: BlobOwner): Promise<string> {
    const info = await this.infoOrThrow(id);
    const key = blobs.uploadKey(id, extension);
    const whole = new PassThrough();
    const copying = (async () => {
      for (let piece = 0; piece < info.pieces.length; piece += 1) {
        const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.pieceKey(id, piece) }));
        await pipeline(object.Body as Readable, whole, { end: false });
      }
      whole.end();
    })().catch((error: unknown) => whole.destroy(error as Error));
    await Promise.all([blobs.put(key, whole, owner), copying]);
    await this.deletePieces(id);
    return key;
  }

  private pieceKey(id: string, piece: number): string {
    return `${this.root}${id}/${String(piece).padStart(6, '0')}`;
  }

  private infoKey(id: string): string {
    return `${this.root}${id}.info`;
  }

  private async saveInfo(info: Info): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: this.infoKey(info.id), Body: JSON.stringify(info), ContentType: 'application/json' }),
    );
  }

  private async info(id: string): Promise<Info | undefined> {
    if (!ID.test(id)) return undefined;
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.infoKey(id) }));
      const parsed = InfoSchema.safeParse(JSON.parse(await object.Body!.transformToString()));
      return parsed.success ? parsed.data : undefined;
    } catch (error) {
      if (isMissing(error) || error instanceof SyntaxError) return undefined; // no info (or unreadable): no such upload, as the callers expect
      throw error;
    }
  }

  private async infoOrThrow(id: string): Promise<Info> {
    const info = await this.info(id);
    if (!info) throw ERRORS.FILE_NOT_FOUND;
    return info;
  }

  private async deletePieces(id: string): Promise<void> {
    for (const key of await this.keysUnder(`${this.root}${id}/`)) await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  private async deleteUpload(id: string): Promise<void> {
    await this.deletePieces(id);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.infoKey(id) }));
  }

  private async keysUnder(prefix: string): Promise<string[]> {
    return (await this.list(prefix)).map((object) => object.key);
  }

  private async list(prefix: string, delimiter?: string): Promise<{ key: string; modifiedAt: Date; folder?: boolean }[]> {
    const found: { key: string; modifiedAt: Date; folder?: boolean }[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, Delimiter: delimiter, ContinuationToken }));
      for (const object of page.Contents ?? []) if (object.Key) found.push({ key: object.Key, modifiedAt: object.LastModified ?? new Date(0) });
      for (const folder of page.CommonPrefixes ?? []) if (folder.Prefix) found.push({ key: folder.Prefix, modifiedAt: new Date(0), folder: true });
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return found;
  }

  /** Every upload by id (from its info, or from pieces left without one), with when its info was last written. */
  private async uploads(): Promise<{ id: string; modifiedAt: Date }[]> {
    const byId = new Map<string, Date>();
    for (const entry of await this.list(this.root, '/')) {
      const name = entry.key.slice(this.root.length).replace(/\.info$|\/$/, '');
      if (!ID.test(name)) continue;
      const seen = byId.get(name);
      if (!seen || entry.modifiedAt > seen) byId.set(name, entry.modifiedAt);
    }
    return [...byId].map(([id, modifiedAt]) => ({ id, modifiedAt }));
  }
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
