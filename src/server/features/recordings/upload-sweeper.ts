import type { FastifyBaseLogger as Logger } from 'fastify';
import { bestEffort } from '#server/lib/best-effort.ts';
import { blobStem, isRecordingKey, isUploadId, type BlobStore } from '#server/lib/blob-store.ts';
import type { MeetingsService } from '../meetings/meetings.service.ts';
import { handOverUpload, isLeftOver } from './hand-over.ts';
import type { UploadStore } from './upload-store.ts';

/** How often expired uploads are looked for; an upload lives UPLOAD_EXPIRY_HOURS (24 by default), so an hour late is no matter. */
const UPLOAD_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * A file no meeting owns is removed by the start-up sweep only once it is this old: a web process
 * may have just created an upload and not yet attached it. (A finished upload's blob waits for its
 * hand-over however old: see sweepOrphans.)
 */
const ORPHAN_GRACE_MS = 60 * 60 * 1000;

export type UploadSweeper = {
  /** Expired uploads go (their meetings abandoned), and recordings nothing arrived for are abandoned. */
  runOnce: (now?: Date) => Promise<{ expired: number; abandoned: number }>;
  /** At start: upload files no meeting waits on and recordings no meeting owns (older than an hour); downloads of older versions counted. */
  sweepOrphans: (now?: Date) => Promise<{ uploads: number; recordings: number }>;
  /** Sweeps now and then every interval until stop(). */
  start: () => void;
  /** Stops the timer and waits for a sweep under way, so the database is not closed under it. */
  stop: () => Promise<void>;
};

type SweeperDeps = {
  store: UploadStore;
  meetings: MeetingsService;
  blobs: BlobStore;
  log: Logger;
  expiryMs: number;
  /** MAX_RECORDING_HOURS, for the uploads it hands over. */
  maxRecordingHours: number;
  now?: () => Date;
  intervalMs?: number;
};

/**
 * The worker's care of upload storage: unfinished uploads expire UPLOAD_EXPIRY_HOURS after they
 * began (tus's expiration extension answers 410 for them from then on), and their files are
 * deleted here; the meeting each one carried is abandoned through the meetings service (failed,
 * "The recording never finished uploading."), as is a meeting still recording that never got an
 * upload in that time. An expired upload whose every byte arrived is handed to its meeting instead.
 */
export function createUploadSweeper(deps: SweeperDeps): UploadSweeper {
  const clock = deps.now ?? (() => new Date());
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<{ expired: number; abandoned: number }> | undefined;

  /**
   * Expired uploads whose every byte arrived but that were never handed over (their process ended,
   * the client never came back) go to their meetings rather than failing them; any that cannot be
   * now are kept for the next sweep. Answers those kept.
   */
  const handOverLeftOvers = async (now: Date): Promise<Set<string>> => {
    const kept = new Set<string>();
    for (const id of await deps.store.unfinished()) {
      const upload = await deps.store.getUpload(id).catch(() => undefined); // unreadable: expired as it is
      const created = Date.parse(upload?.creation_date ?? '');
      if (!upload || Number.isNaN(created) || created + deps.expiryMs >= now.getTime()) continue;
      try {
        if (!(await isLeftOver(deps.store, deps.blobs, upload))) continue;
        const result = await handOverUpload(deps, upload);
        deps.log.info({ uploadId: id, handedOver: result.ok }, 'an expired upload whose process ended before handing it over went to its meeting');
      } catch (error) {
        kept.add(id);
        deps.log.error({ err: error, uploadId: id }, 'an expired upload could not be handed to its meeting; kept for the next sweep');
      }
    }
    return kept;
  };

  const sweep = async (now: Date) => {
    const expired = await deps.store.sweepExpired(now, await handOverLeftOvers(now));
    // Claims on the quota of uploads that began longer ago than an upload may live, whatever became of their files.
    await deps.blobs.uploads.releaseBefore(new Date(now.getTime() - deps.expiryMs));
    let abandoned = 0;
    for (const uploadId of expired) if (await deps.meetings.uploadExpired(uploadId)) abandoned += 1;
    // Any meeting older than an upload may live that still waits (on no upload, or on one whose files are gone).
    abandoned += await deps.meetings.abandonIdleRecordings(new Date(now.getTime() - deps.expiryMs), await deps.store.unfinished());
    if (expired.length > 0 || abandoned > 0)
      deps.log.info({ expired: expired.length, abandoned }, 'expired uploads removed, recordings that never arrived marked failed');
    return { expired: expired.length, abandoned };
  };

  const runOnce = (now = clock()) => {
    // One sweep at a time: a slow sweep is joined, not doubled.
    running ??= sweep(now).finally(() => {
      running = undefined;
    });
    return running;
  };

  const tick = () => {
    void bestEffort('upload-sweep', runOnce(), deps.log);
  };

  /**
   * Downloads converted before the store counted blobs have files but no owner: each is counted as
   * its recording's owner's (the same stem), so their storage used and quota include them.
   */
  const countOlderDownloads = async (keys: readonly string[]) => {
    const owners = await deps.blobs.ownersOf(keys);
    const ownerOfStem = new Map<string, string>();
    for (const [key, owner] of owners) if (owner.kind === 'recording') ownerOfStem.set(blobStem(key), owner.ownerId);
    for (const key of keys) {
      const ownerId = ownerOfStem.get(blobStem(key));
      if (!owners.has(key) && ownerId !== undefined) await deps.blobs.countExisting(key, { ownerId, kind: 'download' });
    }
  };

  return {
    runOnce,
    sweepOrphans: async (now = clock()) => {
      const grace = new Date(now.getTime() - ORPHAN_GRACE_MS);
      const waiting = new Set((await deps.meetings.uploadsInProgress()).map((w) => w.uploadId));
      const uploads = await deps.store.sweepOrphans(waiting, grace);
      // A blob an upload a meeting waits on moved into is that meeting's once handed over (runOnce, or the client's HEAD), however old.
      const handingOver = new Set([...waiting].filter(isUploadId).map((id) => blobStem(deps.blobs.uploadKey(id, 'bin'))));
      // Recordings and their downloads only: exports and avatars are their features' to sweep.
      const candidates = (await deps.blobs.list()).filter(
        (blob) => isRecordingKey(blob.key) && blob.modifiedAt < grace && !handingOver.has(blobStem(blob.key)),
      );
      const owned = await deps.meetings.audioKeysAmong(candidates.map((blob) => blob.key));
      const orphans = candidates.filter((blob) => !owned.has(blob.key)).map((blob) => blob.key);
      await deps.blobs.remove(orphans);
      await countOlderDownloads(candidates.map((blob) => blob.key).filter((key) => owned.has(key)));
      if (uploads > 0 || orphans.length > 0) deps.log.info({ uploads, recordings: orphans.length }, 'orphan upload and recording files removed');
      return { uploads, recordings: orphans.length };
    },
    start: () => {
      if (timer) return;
      tick();
      timer = setInterval(tick, deps.intervalMs ?? UPLOAD_SWEEP_INTERVAL_MS);
      timer.unref(); // never what keeps the process alive
    },
    stop: async () => {
      clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined); // waited for, not judged: its failure is its caller's (tick logs and counts it)
    },
  };
}
