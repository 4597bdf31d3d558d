import { Upload, type DetailedError } from 'tus-js-client';
import { UPLOAD_REFUSED_HAS_AUDIO, UPLOADS_PATH, UploadRefusalSchema } from '#shared/contracts/uploads.ts';
import { acknowledge, claimUpload, getRecording, readRange, removeRecording, setUploadUrl } from './recording-store.ts';

/**
 * Streams a recording from IndexedDB to the server with tus (tus-js-client), while it is still
 * being recorded: the upload's length is declared only when the recorder has stopped. Bytes are
 * read from the local copy for every attempt, so a retry or a resume after a reload can start at
 * whatever offset the server reports. Once the server holds the recording (every byte acknowledged,
 * or its answer that the meeting already has its audio) the local copy is removed.
 */
export type ChunkUploader = {
  /** Wakes the uploader: new bytes were recorded, or the recorder stopped. */
  notify: () => void;
  /** Resolves when the server holds every byte and the local copy is gone; rejects with a readable message if it gives up. */
  finished: Promise<void>;
  abort: () => Promise<void>;
};

type UploaderOptions = {
  recordingId: string;
  meetingId: string;
  mimeType: string;
  getToken: () => Promise<string | undefined>;
  onProgress?: (bytesAcked: number) => void;
};

// Keep trying through outages and server restarts (about 10 minutes), then report.
const RETRY_DELAYS = [
  0, 1000, 2000, 3000, 5000, 5000, 10_000, 10_000, 15_000, 20_000, 30_000, 30_000, 60_000, 60_000, 60_000, 60_000, 60_000, 60_000, 60_000, 60_000,
];
const CHUNK_BYTES = 4 * 1024 * 1024;

export function startChunkUploader(options: UploaderOptions): ChunkUploader {
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  const nextChange = () => new Promise<void>((resolve) => (wake = resolve));

  // The tus FileSource: slices come from IndexedDB; a slice beyond what is recorded waits for more.
  const fileReader = {
    openFile: async () => ({
      size: 0,
      close: () => {},
      slice: async (start: number, end: number) => {
        for (;;) {
          const recording = await getRecording(options.recordingId);
          if (!recording) throw new Error('The local copy of this recording is gone.');
          const available = recording.bytesRecorded;
          if (available > start) {
            const sliceEnd = Math.min(end, available);
            const value = await readRange(options.recordingId, start, sliceEnd);
            return { value, done: recording.stopped && sliceEnd >= available };
          }
          if (recording.stopped) return { value: new Blob([]), done: true };
          await nextChange();
        }
      },
    }),
  };

  let upload: Upload | undefined;
  const release = claimUpload(options.recordingId);
  const finished = (async () => {
    const existing = await getRecording(options.recordingId);
    await new Promise<void>((resolve, reject) => {
      upload = new Upload(options.recordingId, {
        endpoint: UPLOADS_PATH,
        uploadUrl: existing?.uploadUrl ?? null,
        uploadLengthDeferred: true,
        chunkSize: CHUNK_BYTES,
        retryDelays: RETRY_DELAYS,
        storeFingerprintForResuming: false,
        metadata: { meetingId: options.meetingId, filetype: options.mimeType, filename: `recording.${options.mimeType.includes('mp4') ? 'm4a' : 'webm'}` },
        fileReader,
        onBeforeRequest: async (req) => {
          const token = await options.getToken();
          if (token) req.setHeader('Authorization', `Bearer ${token}`);
        },
        onUploadUrlAvailable: () => {
          if (upload?.url) void setUploadUrl(options.recordingId, upload.url);
        },
        onChunkComplete: (_size, bytesAccepted) => {
          void acknowledge(options.recordingId, bytesAccepted).then(() => options.onProgress?.(bytesAccepted));
        },
        onShouldRetry: (error) => {
          const status = (error as DetailedError).originalResponse?.getStatus() ?? 0;
          // Network failures, server restarts and overload are worth retrying; refusals are not.
          return status === 0 || status === 423 || status === 429 || status >= 500;
        },
        onSuccess: () => resolve(),
        // The meeting has its audio already: an earlier attempt finished, its answer lost (a closed
        // tab, a dropped connection). Nothing is left to send.
        onError: (error) => (refusalOf(error)?.reason === UPLOAD_REFUSED_HAS_AUDIO ? resolve() : reject(new Error(uploadErrorMessage(error)))),
      });
      upload.start();
    });
    await removeRecording(options.recordingId);
  })().finally(release);

  return {
    notify,
    finished,
    abort: async () => {
      await upload?.abort();
    },
  };
}

/** The server's refusal of the upload, when it answered with one. */
function refusalOf(error: Error) {
  const body = (error as DetailedError).originalResponse?.getBody();
  if (!body) return undefined;
  try {
    return UploadRefusalSchema.safeParse(JSON.parse(body)).data?.error;
  } catch {
    return undefined;
  }
}

/** The server's own message when it refused the upload, else a plain description. */
export function uploadErrorMessage(error: Error): string {
  const refusal = refusalOf(error);
  if (refusal) return refusal.message;
  const body = (error as DetailedError).originalResponse?.getBody();
  if (body && body.length < 200 && !body.trimStart().startsWith('{')) return body;
  return 'The recording could not be uploaded. Check your connection; Parley keeps it in this browser and will offer to resume.';
}
