import type { Upload } from '@tus/utils';
import type { BlobStore } from '#server/lib/blob-store.ts';
import type { MeetingsService } from '../meetings/meetings.service.ts';
import { storedExtension } from './audio-types.ts';
import { finalizeRecording, type FinalizeResult } from './finalize-recording.ts';
import type { UploadStore } from './upload-store.ts';

export type HandOverDeps = {
  store: UploadStore;
  meetings: MeetingsService;
  blobs: BlobStore;
  /** MAX_RECORDING_HOURS */
  maxRecordingHours: number;
};

/** The key a finished upload's bytes move to (moveInto, given finalizeRecording's extension). */
const movedKeyOf = (blobs: BlobStore, upload: Upload): string => blobs.uploadKey(upload.id, storedExtension(upload.metadata?.filetype ?? ''));

/**
 * Whether every byte of an upload arrived but it was never handed over (its process ended first):
 * its bytes still in the upload store, or moved into the blob store. An upload still arriving is told
 * from what tus read of it, at no cost.
 */
export async function isLeftOver(store: UploadStore, blobs: BlobStore, upload: Upload): Promise<boolean> {
  if (upload.size === undefined || upload.offset !== upload.size) return false;
  if ((await store.bytesOf(upload.id)) > 0) return true;
  return !(await store.isFinished(upload.id)) && (await blobs.exists(movedKeyOf(blobs, upload)));
}

/**
 * Hands a finished upload's audio to its meeting (finalizeRecording), once: under the upload's lock,
 * and not again once it is marked finished. Bytes already moved into the blob store are finalized
 * where they are: the upload's own are gone.
 */
export async function handOverUpload(deps: HandOverDeps, upload: Upload): Promise<FinalizeResult> {
  const { store, blobs } = deps;
  const lock = store.locker.newLock(upload.id);
  await lock.lock(new AbortController().signal, () => {});
  try {
    // Handed over already, by another path: nothing more to say of it.
    if (await store.isFinished(upload.id)) return { ok: true, durationSeconds: 0 };
    const key = movedKeyOf(blobs, upload);
    const moved = await blobs.exists(key);
    // Its meeting took it and only the mark was left: finalized again, it would be removed as unwanted.
    if (moved && (await deps.meetings.audioKeysAmong([key])).has(key)) {
      await store.markFinished(upload);
      return { ok: true, durationSeconds: 0 };
    }
    const result = await finalizeRecording(deps, {
      meetingId: upload.metadata?.meetingId ?? '',
      mimeType: upload.metadata?.filetype ?? '',
      bytes: upload.offset,
      store: moved
        ? async (_extension, owner) => {
            // Counted again: the process may have ended before its row was written.
            await blobs.countExisting(key, owner);
            return key;
          }
        : (extension, owner) => store.moveInto(blobs, upload.id, extension, owner),
    });
    // Remembered as finished until it expires, so a retry whose answer was lost hears "all arrived".
    await store.markFinished(upload);
    return result;
  } finally {
    await lock.unlock();
  }
}
