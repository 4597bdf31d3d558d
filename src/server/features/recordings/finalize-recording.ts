import fsp from 'node:fs/promises';
import type { BlobStore } from '#server/lib/blob-store.ts';
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
import { extensionFor } from './audio-types.ts';

export type FinalizeResult = { ok: true; durationSeconds: number } | { ok: false; status: 409 | 422; reason: string };

/**
 * A finished upload becomes the meeting's audio: proven decodable (or the meeting is marked
 * failed with ffmpeg's reason and the bytes are removed), moved into the blob store, measured,
 * and handed to transcription. A meeting deleted (or abandoned) while its last bytes arrived keeps
 * nothing: the stored file is removed again rather than left as a recording no meeting owns.
 */
export async function finalizeRecording(
  deps: { meetings: MeetingsService; blobs: BlobStore; /** MAX_RECORDING_HOURS */ maxRecordingHours: number },
  input: { meetingId: string; uploadPath: string; mimeType: string; bytes: number },
): Promise<FinalizeResult> {
  let durationMs: number;
  try {
    // Over MAX_RECORDING_HOURS by its container's word, refused before a byte is decoded (a 2 MB
    // Opus file can declare ten hours); a container that does not say is stopped once decoding passes it.
    const declaredMs = await probeDurationMs(input.uploadPath);
    const overlong = declaredMs === null ? null : overlongReason(declaredMs, deps.maxRecordingHours);
    if (overlong !== null) throw new RecordingRefused(overlong);
    ({ durationMs } = await measureAudio(input.uploadPath, { maxMs: maxDecodedMs(deps.maxRecordingHours) }));
  } catch (error) {
    const reason =
      error instanceof RecordingRefused || error instanceof AudioDecodeError
        ? error.message
        : error instanceof AudioTooLongError
          ? undeclaredOverlongReason(deps.maxRecordingHours)
          : 'The recording could not be read.';
    await fsp.rm(input.uploadPath, { force: true });
    await deps.meetings.recordingUnreadable(input.meetingId, reason);
    return { ok: false, status: 422, reason };
  }
  // Stored as its meeting's owner's (counted against their quota); a meeting already gone keeps nothing.
  const ownerId = await deps.meetings.ownerOf(input.meetingId);
  if (ownerId === undefined) {
    await fsp.rm(input.uploadPath, { force: true });
    return gone;
  }
  const key = await deps.blobs.adopt(input.uploadPath, extensionFor(input.mimeType) ?? 'bin', { ownerId, kind: 'recording' });
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
