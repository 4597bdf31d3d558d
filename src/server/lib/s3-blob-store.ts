import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { blobKeys, checkBlobKey, isBlobKey, newBlobKey, uploadClaims, type BlobStore } from './blob-store.ts';
import type { BlobLedger, BlobOwner } from './blobs.repository.ts';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-files.ts';

/** Where an S3-compatible store keeps Parley's objects, and how to reach it (config.ts: STORAGE_URL, S3_*). */
export type S3Settings = {
  bucket: string;
  /** Put before every key ("parley/"), so one bucket may hold more than Parley's objects. */
  prefix: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
};

/** Bytes per part of a multipart upload: S3's smallest part but the last; a put holds at most QUEUE parts of it in memory. */
const PART_BYTES = 8 * 1024 * 1024;
const QUEUE = 2;
/** Deletes at once: one DeleteObject each (multi-object delete needs a Content-MD5 not every gateway takes alike). */
const DELETE_CONCURRENCY = 8;

/** An S3 client as the adapter makes it: checksums only where the API requires them, which every gateway takes. */
export function createS3Client(settings: S3Settings): S3Client {
  const config: S3ClientConfig = {
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    // Newer SDKs add CRC trailers to every upload by default; Ceph, Swift, B2 and older MinIO refuse them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    // Without keys the SDK's own chain answers (instance roles, AWS_PROFILE, …).
    ...(settings.accessKeyId && settings.secretAccessKey
      ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
      : {}),
  };
  return new S3Client(config);
}

const isMissing = (error: unknown) =>
  error instanceof S3ServiceException && (error.name === 'NotFound' || error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404);

/** A missing object reads as a missing file does (ENOENT), so callers judge both adapters alike. */
const asFileError = (error: unknown, key: string) => {
  if (!isMissing(error)) return error;
  return Object.assign(new Error(`no blob ${key}`), { code: 'ENOENT' });
};

/** A private temporary folder for the local copies ffmpeg reads, and the files it writes before they are uploaded. */
async function privateTemp(): Promise<string> {
  return fsp.mkdtemp(path.join(os.tmpdir(), 'parley-blob-')).then(async (dir) => {
    await fsp.chmod(dir, PRIVATE_DIR_MODE);
    return dir;
  });
}

/**
 * The object-store adapter: every blob an object under the bucket's prefix, by the same keys as on
 * disk, counted in the same `blobs` table. Writes are single PUTs or multipart uploads
 * (lib-storage, a few parts in memory at a time), which S3 makes visible whole or not at all;
 * reads stream GetObject (ranged with an HTTP Range). Tools that need a file (ffmpeg) get a private
 * temporary copy (withLocalFile), and files made by a tool are uploaded and then removed (produce, adopt).
 */
export function createS3BlobStore(settings: S3Settings, ledger: BlobLedger, client: S3Client = createS3Client(settings)): BlobStore & S3Extras {
  const Bucket = settings.bucket;
  const objectKey = (key: string) => `${settings.prefix}${checkBlobKey(key)}`;

  const head = async (key: string) => {
    try {
      return await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  };
  const putObject = async (key: string, body: Readable | Buffer): Promise<void> => {
    await new Upload({ client, params: { Bucket, Key: objectKey(key), Body: body }, partSize: PART_BYTES, queueSize: QUEUE, leavePartsOnError: false }).done();
  };
  const deleteObjects = async (keys: readonly string[]) => {
    const queue = [...keys];
    const worker = async () => {
      for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
        // S3 answers a delete of nothing with 204: deleting twice is no error.
        await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
      }
    };
    await Promise.all(Array.from({ length: Math.min(DELETE_CONCURRENCY, queue.length) }, worker));
  };
  /** The row of an object now stored; a row that cannot be written takes the object with it (nothing stored uncounted). */
  const record = async (key: string, owner: BlobOwner, bytes: number) => {
    try {
      await ledger.record(key, owner, bytes);
    } catch (error) {
      await deleteObjects([key]);
      throw error;
    }
  };
  const uploadFile = async (file: string, key: string, owner: BlobOwner): Promise<number> => {
    const { size } = await fsp.stat(file);
    await putObject(key, fs.createReadStream(file));
    await record(key, owner, size);
    return size;
  };
  const adoptAs = async (key: string, sourcePath: string, owner: BlobOwner): Promise<void> => {
    await uploadFile(sourcePath, key, owner);
    await fsp.rm(sourcePath, { force: true });
  };

  return {
    ...blobKeys,
    withLocalFile: async (key, use) => {
      const dir = await privateTemp();
      try {
        const file = path.join(dir, path.basename(key));
        const object = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) })).catch((error: unknown) => {
          throw asFileError(error, key);
        });
        await pipeline(object.Body as Readable, fs.createWriteStream(file, { mode: PRIVATE_FILE_MODE }));
        return await use(file);
      } finally {
        await fsp.rm(dir, { recursive: true, force: true });
      }
    },
    exists: async (key) => (await head(key)) !== undefined,
    size: async (key) => {
      const found = await head(key);
      if (!found) throw asFileError(Object.assign(new Error('NotFound'), { name: 'NotFound' }), key);
      return found.ContentLength ?? 0;
    },
    stat: async (key) => {
      const found = await head(key);
      return found && { bytes: found.ContentLength ?? 0, modifiedAt: found.LastModified ?? new Date(0) };
    },
    createReadStream: (key, range) => {
      // Answered at once (as fs.createReadStream is); the bytes, or the error, follow.
      const out = new PassThrough();
      client.send(new GetObjectCommand({ Bucket, Key: objectKey(key), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) })).then(
        (object) => {
          const body = object.Body as Readable;
          body.on('error', (error) => out.destroy(error));
          out.on('close', () => body.destroy());
          body.pipe(out);
        },
        (error: unknown) => out.destroy(asFileError(error, key) as Error),
      );
      return out;
    },
    put: async (key, body, owner) => {
      if (Buffer.isBuffer(body)) {
        await putObject(key, body);
        await record(key, owner, body.length);
        return body.length;
      }
      let bytes = 0;
      const counted = body.pipe(
        new Transform({
          transform(chunk: Buffer, _encoding, done) {
            bytes += chunk.length;
            done(null, chunk);
          },
        }),
      );
      body.on('error', (error) => counted.destroy(error));
      await putObject(key, counted);
      await record(key, owner, bytes);
      return bytes;
    },
    // The rows go first, as on disk: an object whose delete failed is an orphan the sweep removes.
    remove: async (keys) => {
      keys.forEach(checkBlobKey);
      await ledger.forget(keys);
      await deleteObjects(keys);
    },
    removeOwnedBy: async (ownerId, kinds) => {
      const keys = await ledger.forgetOwnedBy(ownerId, kinds);
      await deleteObjects(keys.filter(isBlobKey));
      return keys.length;
    },
    usage: ledger.usage,
    list: async (prefix = '') => {
      const found: { key: string; modifiedAt: Date }[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: `${settings.prefix}${prefix}`, ContinuationToken }));
        for (const object of page.Contents ?? []) {
          const key = object.Key?.slice(settings.prefix.length) ?? '';
          // Only objects this store named: anything else under the prefix is not ours to judge.
          if (isBlobKey(key)) found.push({ key, modifiedAt: object.LastModified ?? new Date(0) });
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return found;
    },
    adopt: async (sourcePath, extension, owner) => {
      const key = newBlobKey(extension);
      await adoptAs(key, sourcePath, owner);
      return key;
    },
    adoptAs,
    produce: async (key, owner, write) => {
      checkBlobKey(key);
      const dir = await privateTemp();
      try {
        const file = path.join(dir, `${crypto.randomUUID()}.part`);
        await write(file);
        return await uploadFile(file, key, owner);
      } finally {
        await fsp.rm(dir, { recursive: true, force: true });
      }
    },
    ownersOf: ledger.ownersOf,
    countExisting: async (key, owner) => {
      const found = await head(key);
      if (found) await ledger.record(key, owner, found.ContentLength ?? 0);
    },
    uploads: uploadClaims(ledger),
    presignedUrl: (key, seconds) => getSignedUrl(client, new GetObjectCommand({ Bucket, Key: objectKey(key) }), { expiresIn: seconds }),
    client,
    close: () => client.destroy(),
  };
}

/** What only the object store has. */
export type S3Extras = {
  /** A link that reads the blob straight from the object store for `seconds`, signed (altered, it is refused). */
  presignedUrl: (key: string, seconds: number) => Promise<string>;
  /** The client, for the upload store beside the blobs (uploads under way). */
  client: S3Client;
  /** Lets go of the client's connections. */
  close: () => void;
};
