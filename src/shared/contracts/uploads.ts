import { z } from 'zod/mini';

/**
 * Resumable audio uploads (the tus protocol): where the browser sends a recording's bytes, live or
 * imported. The upload's metadata names the meeting it belongs to.
 */
export const UPLOADS_PATH = '/uploads';

/**
 * `reason` of a refusal when the meeting already holds its audio: an earlier upload of this
 * recording finished though its answer never reached the browser, which then has nothing left to send.
 */
export const UPLOAD_REFUSED_HAS_AUDIO = 'has-audio';

/** The body of a refused upload request: a message for people, and a reason where the browser acts on it. */
export const UploadRefusalSchema = z.object({
  error: z.object({ message: z.string(), reason: z.optional(z.literal(UPLOAD_REFUSED_HAS_AUDIO)) }),
});
export type UploadRefusal = z.infer<typeof UploadRefusalSchema>;
