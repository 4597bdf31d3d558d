import type { Readable } from 'node:stream';
import sharp, { type Metadata } from 'sharp';
import { AppError } from '#server/lib/app-error.ts';
import type { BlobStore } from '#server/lib/blob-store.ts';
import type { RateLimiters } from '#server/lib/rate-limit.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The size people's pictures are kept and served at: enough for a 2× avatar, a few KB each. */
const SIZE = 256;

/**
 * What a picture may be, checked before it is decoded. Only the four raster formats, recognised by
 * their first bytes: sharp would also render SVG (and read PDF, TIFF, HEIF…), and a 2 KB SVG can
 * keep a libuv thread busy for seconds. JPEG and WebP are decoded already shrunk (sharp's
 * shrink-on-load), so a photo of up to 40 megapixels is cheap; PNG and GIF are decoded whole, so
 * they stop at 24 (a 6K screenshot), which keeps a small file that inflates to a huge image out.
 */
const FORMATS = [
  { format: 'png', magic: (b: Buffer) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), maxPixels: 24_000_000 },
  { format: 'jpeg', magic: (b: Buffer) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff, maxPixels: 40_000_000 },
  { format: 'gif', magic: (b: Buffer) => ['GIF87a', 'GIF89a'].includes(b.toString('latin1', 0, 6)), maxPixels: 24_000_000 },
  { format: 'webp', magic: (b: Buffer) => b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP', maxPixels: 40_000_000 },
] as const;

/** A picture that takes longer than this to decode and resize is refused (sharp stops its work). */
const DECODE_TIMEOUT_SECONDS = 5;
/** Pictures worked on at once: each holds a libuv thread, which file reads of every request share. */
const CONCURRENT_DECODES = 1;
/** Uploads waiting for their turn; more are refused rather than held in memory (up to 8 MB each). */
const MAX_WAITING = 8;
/** Uploads one person may make in an hour (each costs CPU whether or not it is a picture). */
export const UPLOADS_PER_HOUR = 10;

const NOT_A_PICTURE = 'That file is not a picture Parley can read. Use a PNG, JPEG, WebP or GIF image.';

/**
 * Profile pictures: a PNG, JPEG, WebP or GIF a person uploads is decoded, turned upright, cropped to
 * a square and resized to 256×256 WebP by sharp, then kept in the blob store under the person's
 * key (avatars/<userId>.webp), counted against their storage. The original is never stored.
 */
export type AvatarStore = ReturnType<typeof createAvatarStore>;

export function createAvatarStore(blobs: BlobStore, rateLimiters: RateLimiters) {
  const keyOf = (userId: string) => blobs.keyFor('avatars', userId, 'webp');
  const urlOf = (userId: string, modifiedMs: number) => `/api/v1/avatars/${userId}?v=${Math.floor(modifiedMs).toString(36)}`;
  const uploads = rateLimiters.limiter({ keyPrefix: 'avatar', points: UPLOADS_PER_HOUR, duration: 3600 });
  const inTurn = createGate(CONCURRENT_DECODES, MAX_WAITING);

  return {
    save: async (userId: string, image: Buffer): Promise<string> => {
      if (!(await uploads.consume(userId)).allowed) {
        throw new AppError('RATE_LIMITED', `You have changed your picture ${UPLOADS_PER_HOUR} times in the last hour. Try again later.`);
      }
      const resized = await inTurn(() => toAvatar(image));
      await blobs.put(keyOf(userId), resized, { ownerId: userId, kind: 'avatar' });
      const stored = await blobs.stat(keyOf(userId));
      return urlOf(userId, stored?.modifiedAt.getTime() ?? Date.now());
    },
    /** The stored picture, or undefined when the person has none (any id that names no picture). */
    open: async (userId: string): Promise<{ stream: Readable; bytes: number } | undefined> => {
      if (!UUID.test(userId)) return undefined;
      const stored = await blobs.stat(keyOf(userId));
      return stored && { stream: blobs.createReadStream(keyOf(userId)), bytes: stored.bytes };
    },
    remove: async (userId: string): Promise<void> => {
      await blobs.remove([keyOf(userId)]);
    },
  };
}

/** Checks the format by content and the size from the header, then decodes and resizes. */
async function toAvatar(image: Buffer): Promise<Buffer> {
  const expected = FORMATS.find((candidate) => candidate.magic(image));
  if (!expected) throw new AppError('VALIDATION_FAILED', NOT_A_PICTURE);
  let metadata: Metadata;
  try {
    // The header only: the size is checked here, to say what is wrong, and again by limitInputPixels below.
    metadata = await sharp(image, { limitInputPixels: false }).metadata();
  } catch {
    throw new AppError('VALIDATION_FAILED', NOT_A_PICTURE);
  }
  if (metadata.format !== expected.format) throw new AppError('VALIDATION_FAILED', NOT_A_PICTURE);
  const height = metadata.pageHeight ?? metadata.height;
  if (metadata.width * height > expected.maxPixels) {
    throw new AppError('VALIDATION_FAILED', `That picture is too large: use one of at most ${expected.maxPixels / 1_000_000} megapixels.`);
  }
  try {
    return await sharp(image, { limitInputPixels: expected.maxPixels })
      .timeout({ seconds: DECODE_TIMEOUT_SECONDS })
      .rotate()
      .resize(SIZE, SIZE, { fit: 'cover' })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    throw new AppError('VALIDATION_FAILED', NOT_A_PICTURE);
  }
}

/** Runs at most `limit` tasks at once; up to `maxWaiting` more wait their turn, further ones are refused. */
export function createGate(limit: number, maxWaiting: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running < limit) running += 1;
    else {
      if (waiting.length >= maxWaiting) throw new AppError('RATE_LIMITED', 'Parley is busy with other pictures. Try again in a minute.');
      // The slot is handed over by the task that finishes, so `running` already counts this one.
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  };
}
