import fsp from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { EVENTS, Server } from '@tus/server';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '#server/config.ts';
import type { BlobStore } from '#server/lib/blob-store.ts';
import type { AuthContext } from '../auth/auth-context.ts';
import { authenticateToken } from '../auth/authenticate.ts';
import { GoTrueError } from '../auth/gotrue-error.ts';
import type { MeetingsService } from '../meetings/meetings.service.ts';
import { baseMime, extensionFor } from './audio-types.ts';
import { DurableFileStore } from './durable-file-store.ts';
import { finalizeRecording } from './finalize-recording.ts';

export const UPLOADS_PATH = '/uploads';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type UploadsDeps = {
  config: Config;
  meetings: MeetingsService;
  blobs: BlobStore;
  auth: AuthContext;
  log: FastifyBaseLogger;
  /** The hand-off to transcription once a meeting's audio is stored (the upload's answer does not wait for it). */
  onRecordingStored: (meetingId: string) => Promise<void>;
};

/** A tus hook error: the status and a JSON body the web app can show. */
const refuse = (status: number, message: string) => ({ status_code: status, body: JSON.stringify({ error: { message } }) });

function bearer(req: Request): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.get('authorization') ?? '');
  return match?.[1];
}

/**
 * Resumable audio uploads (the tus protocol, @tus/server) at /uploads: live recordings stream in
 * with a deferred length while the meeting is being recorded, files are uploaded whole. Every
 * request carries the access token; an upload belongs to the person who created it and to one
 * of their meetings. Bytes are fsynced before an offset is acknowledged.
 */
export async function registerUploads(app: FastifyInstance, deps: UploadsDeps): Promise<void> {
  const directory = path.join(deps.config.dataDir, 'uploads');
  await fsp.mkdir(directory, { recursive: true, mode: 0o700 });
  const datastore = new DurableFileStore({ directory });

  const userFor = async (req: Request) => {
    try {
      return (await authenticateToken(deps.auth, bearer(req))).user;
    } catch (error) {
      // A session that still owes its MFA challenge is refused outright (403); any other failure asks for a fresh token (401).
      if (error instanceof GoTrueError) throw refuse(error.code === 'insufficient_aal' ? 403 : 401, error.message);
      throw error;
    }
  };

  const tus = new Server({
    path: UPLOADS_PATH,
    datastore,
    relativeLocation: true,
    maxSize: deps.config.uploads.maxBytes,
    respectForwardedHeaders: deps.config.http.trustProxy,
    // The same origins as the rest of the server (http/security.ts: same-origin unless CORS_ORIGINS
    // names more): left out, tus would answer every origin with `Access-Control-Allow-Origin: *`.
    allowedOrigins: (origin) => deps.config.http.corsOrigins.includes(origin),
    allowedCredentials: true,
    onIncomingRequest: async (req, uploadId) => {
      const user = await userFor(req);
      if (req.method === 'POST' || !uploadId) return;
      const upload = await datastore.getUpload(uploadId).catch(() => undefined);
      // Someone else's upload answers exactly like a missing one.
      if (!upload || upload.metadata?.ownerId !== user.id) throw refuse(404, 'Upload not found');
    },
    onUploadCreate: async (req, upload) => {
      const user = await userFor(req);
      const meetingId = upload.metadata?.meetingId ?? '';
      const type = baseMime(upload.metadata?.filetype ?? '');
      if (!UUID.test(meetingId)) throw refuse(400, 'The upload must name its meeting (meetingId).');
      if (!extensionFor(type)) {
        throw refuse(415, `Parley cannot take ${type || 'files of unknown type'}: use an audio file (mp3, m4a, wav, webm, ogg or mp4 audio).`);
      }
      const attached = await deps.meetings.attachUpload(user.id, meetingId, upload.id);
      if (attached === 'not-found') throw refuse(404, 'Meeting not found');
      if (attached === 'has-audio') throw refuse(409, 'This meeting already has its audio.');
      return { metadata: { ...upload.metadata, meetingId, filetype: type, ownerId: user.id } };
    },
    onUploadFinish: async (_req, upload) => {
      const meetingId = upload.metadata?.meetingId ?? '';
      const result = await finalizeRecording(
        { meetings: deps.meetings, blobs: deps.blobs },
        { meetingId, uploadPath: path.join(directory, upload.id), mimeType: upload.metadata?.filetype ?? '', bytes: upload.offset },
      );
      await fsp.rm(path.join(directory, `${upload.id}.json`), { force: true });
      if (!result.ok) throw refuse(422, result.reason);
      void deps.onRecordingStored(meetingId).catch((err: unknown) => deps.log.error({ err, meetingId }, 'could not queue transcription'));
      return {};
    },
    onResponseError: (_req, error) => {
      if ('status_code' in error) return undefined;
      deps.log.error({ err: error }, 'upload failed');
      return { status_code: 500, body: JSON.stringify({ error: { message: 'The upload failed on the server. It will resume from the last saved byte.' } }) };
    },
  });
  tus.on(EVENTS.POST_TERMINATE, (_req, _res, id) => {
    void deps.meetings.detachUpload(id);
  });

  await app.register(async (scope) => {
    // tus reads the raw request body itself.
    scope.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));
    const handle = async (request: { raw: IncomingMessage }, reply: { hijack: () => void; raw: ServerResponse }) => {
      reply.hijack();
      await tus.handle(request.raw, reply.raw);
    };
    scope.all(UPLOADS_PATH, handle);
    scope.all(`${UPLOADS_PATH}/*`, handle);
  });
}
