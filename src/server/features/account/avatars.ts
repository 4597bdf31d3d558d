import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { AppError } from '#server/lib/app-error.ts';

/** The size people's pictures are kept and served at: enough for a 2× avatar, a few KB each. */
const SIZE = 256;

/**
 * Profile pictures: whatever image a person uploads is decoded, turned upright, cropped to a square
 * and resized to 256×256 WebP by sharp, then kept as $DATA_DIR/avatars/<userId>.webp (not the blob
 * store, whose orphan sweep keeps only recordings). The original is never stored.
 */
export type AvatarStore = ReturnType<typeof createAvatarStore>;

export function createAvatarStore(dataDir: string) {
  const dir = path.join(dataDir, 'avatars');
  const fileOf = (userId: string) => path.join(dir, `${userId}.webp`);
  const urlOf = (userId: string, modifiedMs: number) => `/api/v1/avatars/${userId}?v=${Math.floor(modifiedMs).toString(36)}`;

  return {
    save: async (userId: string, image: Buffer): Promise<string> => {
      let resized: Buffer;
      try {
        // limitInputPixels: a small file that claims enormous dimensions is refused before it is decoded.
        resized = await sharp(image, { limitInputPixels: 40_000_000 }).rotate().resize(SIZE, SIZE, { fit: 'cover' }).webp({ quality: 82 }).toBuffer();
      } catch {
        throw new AppError('VALIDATION_FAILED', 'That file is not a picture Parley can read. Use a PNG, JPEG, WebP or GIF image.');
      }
      await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
      const partial = `${fileOf(userId)}.${crypto.randomUUID()}.partial`;
      await fsp.writeFile(partial, resized, { mode: 0o600 });
      await fsp.rename(partial, fileOf(userId));
      return urlOf(userId, (await fsp.stat(fileOf(userId))).mtimeMs);
    },
    /** The stored picture, or undefined when the person has none. */
    open: async (userId: string): Promise<{ stream: fs.ReadStream; bytes: number } | undefined> => {
      const stat = await fsp.stat(fileOf(userId)).catch(() => undefined);
      return stat && { stream: fs.createReadStream(fileOf(userId)), bytes: stat.size };
    },
    remove: async (userId: string): Promise<void> => {
      await fsp.rm(fileOf(userId), { force: true });
    },
  };
}
