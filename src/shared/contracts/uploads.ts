/**
 * Resumable audio uploads (the tus protocol): where the browser sends a recording's bytes, live or
 * imported. The upload's metadata names the meeting it belongs to.
 */
export const UPLOADS_PATH = '/uploads';
