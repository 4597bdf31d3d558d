import type { DataStore, Locker, Upload } from '@tus/utils';
import type { BlobStore } from '#server/lib/blob-store.ts';
import type { BlobOwner } from '#server/lib/blobs.repository.ts';

/**
 * Where uploads under way keep their bytes until they are finished: on disk (durable-file-store.ts)
 * or in the object store (s3-upload-store.ts). Both acknowledge an offset only once its bytes are
 * durable, remember a finished upload until it expires, and are swept alike (upload-sweeper.ts).
 */
export type UploadStore = DataStore & {
  /** The per-upload locks tus takes while a request works on an upload (deps.ts: memory, or Redis across processes), so `discard` can take one too. */
  readonly locker: Locker;
  isFinished: (id: string) => Promise<boolean>;
  /** Remembers that every byte of the upload arrived and was handed over; its bytes go. */
  markFinished: (upload: Upload) => Promise<void>;
  /** Cancels an upload: its bytes and its info go, so any further request for it answers 404. */
  discard: (id: string) => Promise<void>;
  /** The bytes an unfinished upload holds so far (0 when it has none or is gone). */
  bytesOf: (id: string) => Promise<number>;
  /** Deletes every upload created before `now` less the expiry period, but those in `keep`; answers the ids of those that expired unfinished. */
  sweepExpired: (now: Date, keep?: ReadonlySet<string>) => Promise<string[]>;
  /** Start-up clean-up of uploads no meeting waits on, once older than `before`; answers how many. */
  sweepOrphans: (wanted: ReadonlySet<string>, before: Date) => Promise<number>;
  /** Uploads still under way (unfinished, with their info). */
  unfinished: () => Promise<Set<string>>;
  /** Moves a complete upload's bytes into the blob store as `owner`'s, under its own key (blobs.uploadKey), which it answers. */
  moveInto: (blobs: BlobStore, id: string, extension: string, owner: BlobOwner) => Promise<string>;
};
