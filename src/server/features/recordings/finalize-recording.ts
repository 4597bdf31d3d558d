import type { BlobStore } from '#server/lib/blob-store.ts';
import type { BlobOwner } from '#server/lib/blobs.repository.ts';
import {
  AudioDecodeError,
  AudioTooLongError,
  maxDecodedMs,
  measureAudio,
  overlongReason,
  probeDurationMs,
  undeclaredOverlongReason,
} from '#server/lib/ffmpeg.ts';
import type { MeetingsService } from '../meetings/meetings.service.ts';
import { storedExtension } from './audio-types.ts';

export type FinalizeResult = { ok: true; durationSeconds: number } | { ok: false; status: 409 | 422; reason: string };

/**
 * A finished upload becomes the meeting's audio: moved into the blob store as its owner's, proven
 * decodable (or the meeting is marked failed with ffmpeg's reason and the bytes are removed),
 * measured, and handed to transcription. A meeting deleted (or abandoned) while its last bytes
 * arrived keeps nothing: the stored file is removed again rather than left as a recording no
 * meeting owns. The upload's own bytes are the upload store's to remove (markFinished).
 */
export async function finalizeRecording(
  deps: { meetings: MeetingsService; blobs: BlobStore; /** MAX_RECORDING_HOURS */ maxRecordingHours: number },
  input: { meetingId: string; mimeType: string; bytes: number; store: (extension: string, owner: BlobOwner) => Promise<string> },
): Promise<FinalizeResult> {
  // Stored as its meeting's owner's (counted against their quota); a meeting already gone keeps nothing.
  const ownerId = await deps.meetings.ownerOf(input.meetingId);
  if (ownerId === undefined) return gone;
  const key = await input.store(storedExtension(input.mimeType), { ownerId, kind: 'recording' });
  let durationMs: number;
  try {
    durationMs = await deps.blobs.withLocalFile(key, async (file) => {
      // Over MAX_RECORDING_HOURS by its container's word, refused before a byte is decoded (a 2 MB
      // Opus file can declare ten hours); a container that does not say is stopped once decoding passes it.
      const declaredMs = await probeDurationMs(file);
      const overlong = declaredMs === null ? null : overlongReason(declaredMs, deps.maxRecordingHours);
      if (overlong !== null) throw new RecordingRefused(overlong);
      return (await measureAudio(file, { maxMs: maxDecodedMs(deps.maxRecordingHours) })).durationMs;
    });
  } catch (error) {
    const reason =
      error instanceof RecordingRefused || error instanceof AudioDecodeError
        ? error.message
        : error instanceof AudioTooLongError
          ? undeclaredOverlongReason(deps.maxRecordingHours)
          : 'The recording could not be read.';
    await deps.blobs.remove([key]);
    await deps.meetings.recordingUnreadable(input.meetingId, reason);
    return { ok: false, status: 422, reason };
  }
  const durationSeconds = Math.round(durationMs / 1000);
  const stored = await deps.meetings.recordingStored(input.meetingId, { key, mime: input.mimeType, bytes: input.bytes, durationSeconds });
  if (!stored) {
    await deps.blobs.remove([key]);
    return gone;
  }
  return { ok: true, durationSeconds };
}

const gone: FinalizeResult = { ok: false, status: 409, reason: 'This meeting was deleted or no longer waits for its recording.' };

/** A recording refused for what it is (over MAX_RECORDING_HOURS), with the words the person reads. */
class RecordingRefused extends Error {}
