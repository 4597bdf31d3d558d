import type { FILE_FORMAT_VALUES } from '#shared/contracts/settings.ts';
import type { BlobStore } from '#server/lib/blob-store.ts';
import { transcodeAudio } from '#server/lib/ffmpeg.ts';

export type AudioDownloadFormat = (typeof FILE_FORMAT_VALUES)[number];

/**
 * A recording as it downloads (Settings › Recording › Default File Format). The browser's
 * MediaRecorder WebM carries no duration, so players showed none and could not seek; each format
 * here is written by ffmpeg to a file, which states its length (WAV's header, MP3's Xing frame,
 * MP4's index). AAC goes in an MP4 (.m4a) container: raw ADTS has no length either.
 */
const FORMATS: Record<AudioDownloadFormat, { extension: string; mime: string; codecArgs: string[] }> = {
  mp3: { extension: 'mp3', mime: 'audio/mpeg', codecArgs: ['-c:a', 'libmp3lame', '-q:a', '2'] },
  wav: { extension: 'wav', mime: 'audio/wav', codecArgs: ['-c:a', 'pcm_s16le'] },
  aac: { extension: 'm4a', mime: 'audio/mp4', codecArgs: ['-c:a', 'aac', '-b:a', '160k', '-movflags', '+faststart'] },
};

export type AudioDownload = { key: string; mime: string; extension: string };

/**
 * Converts recordings for download once and keeps the result in the blob store beside the
 * recording (a sibling key: deleted with it, kept by the orphan sweep while it is). A second
 * request for the same file while the first is converting waits for that one.
 */
export function createAudioDownloads(deps: { blobs: BlobStore; ffmpegPath?: string }) {
  const { blobs } = deps;
  const converting = new Map<string, Promise<unknown>>();

  return {
    /**
     * The stored file of `recordingKey` in `format`, converted now unless it was before; stored as
     * the recording's owner's, so it counts against their quota like the recording.
     */
    prepare: async (recordingKey: string, ownerId: string, format: AudioDownloadFormat): Promise<AudioDownload> => {
      const { extension, mime, codecArgs } = FORMATS[format];
      // A recording already in the format (an uploaded WAV or MP3) states its own length.
      if (recordingKey.endsWith(`.${extension}`)) return { key: recordingKey, mime, extension };
      const key = blobs.siblingKey(recordingKey, extension);
      if (!(await blobs.exists(key))) {
        let pending = converting.get(key);
        if (!pending) {
          pending = blobs
            .produce(key, { ownerId, kind: 'download' }, (path) =>
              blobs.withLocalFile(recordingKey, (source) =>
                transcodeAudio(source, path, [...codecArgs, '-f', extension === 'm4a' ? 'mp4' : extension], deps.ffmpegPath),
              ),
            )
            .finally(() => converting.delete(key));
          converting.set(key, pending);
        }
        await pending;
      }
      return { key, mime, extension };
    },
  };
}

/** A recording's key with every download file it may have: what deleting the recording deletes. */
export const withDownloadKeys = (blobs: BlobStore, recordingKey: string): string[] => [
  recordingKey,
  ...Object.values(FORMATS).map((f) => blobs.siblingKey(recordingKey, f.extension)),
];
