import fsp from 'node:fs/promises';
import type { Db } from '#server/db/create-db.ts';
import type { BlobStore } from '#server/lib/blob-store.ts';
import { AudioDecodeError, measureAudio } from '#server/lib/ffmpeg.ts';
import { extensionFor } from './audio-types.ts';

export type FinalizeResult = { ok: true; durationSeconds: number } | { ok: false; reason: string };

/**
 * A finished upload becomes the meeting's audio: proven decodable (or the meeting is marked
 * failed with ffmpeg's reason and the bytes are removed), moved into the blob store, measured,
 * and handed to transcription.
 */
export async function finalizeRecording(
  deps: { db: Db; blobs: BlobStore },
  input: { meetingId: string; uploadPath: string; mimeType: string; bytes: number },
): Promise<FinalizeResult> {
  const now = () => new Date().toISOString();
  let durationMs: number;
  try {
    ({ durationMs } = await measureAudio(input.uploadPath));
  } catch (error) {
    const reason = error instanceof AudioDecodeError ? error.message : 'The recording could not be read.';
    await fsp.rm(input.uploadPath, { force: true });
    await deps.db.updateTable('meetings').set({ status: 'failed', failure_reason: reason, updated_at: now() }).where('id', '=', input.meetingId).execute();
    return { ok: false, reason };
  }
  const key = await deps.blobs.adopt(input.uploadPath, extensionFor(input.mimeType) ?? 'bin');
  const durationSeconds = Math.round(durationMs / 1000);
  await deps.db
    .updateTable('meetings')
    .set({
      audio_key: key,
      audio_mime: input.mimeType,
      audio_bytes: input.bytes,
      duration_seconds: durationSeconds,
      status: 'processing',
      failure_reason: null,
      updated_at: now(),
    })
    .where('id', '=', input.meetingId)
    .execute();
  return { ok: true, durationSeconds };
}
