import type { Readable } from 'node:stream';
import type { BlobStore } from '#server/lib/blob-store.ts';
import type { MeetingsService } from '../meetings/meetings.service.ts';
import { extensionFor } from './audio-types.ts';
import { finalizeRecording, type FinalizeResult } from './finalize-recording.ts';

export type RecordingsService = ReturnType<typeof createRecordingsService>;

/**
 * Recordings that arrive other than by upload (a Teams meeting's, fetched from Microsoft Graph): stored
 * as the meeting's audio, proven decodable and handed to transcription exactly as an upload's last
 * chunk is (finalize-recording.ts).
 */
export function createRecordingsService(deps: { meetings: MeetingsService; blobs: BlobStore; maxRecordingHours: number }) {
  return {
    /** Whether Parley takes recordings of this MIME type. */
    accepts: (mimeType: string): boolean => extensionFor(mimeType) !== undefined,

    /** Stores `body` as the meeting's recording (the meeting waits for its audio); the body's own limits are the caller's. */
    store: async (meetingId: string, mimeType: string, body: Readable): Promise<FinalizeResult> => {
      // The size is known once the body has been stored, before finalizeRecording reads it.
      const input = {
        meetingId,
        mimeType,
        bytes: 0,
        store: async (extension: string, owner: Parameters<BlobStore['put']>[2]) => {
          const key = deps.blobs.newKey(extension);
          input.bytes = await deps.blobs.put(key, body, owner);
          return key;
        },
      };
      return await finalizeRecording(deps, input);
    },
  };
}
