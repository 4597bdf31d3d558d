import fsp from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { EVENTS, Server } from '@tus/server';
import type { Locker, Upload } from '@tus/utils';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { UPLOAD_REFUSED_HAS_AUDIO, type UploadRefusal } from '#shared/contracts/uploads.ts';
import type { Config } from '#server/config.ts';
import type { BlobStore } from '#server/lib/blob-store.ts';
import type { AuthContext } from '../auth/auth-context.ts';
import { authenticateToken } from '../auth/authenticate.ts';
import { GoTrueError } from '../auth/gotrue-error.ts';
import type { MeetingsService } from '../meetings/meetings.service.ts';
import { baseMime, extensionFor } from './audio-types.ts';
import { DurableFileStore } from './durable-file-store.ts';
import { S3UploadStore } from './s3-upload-store.ts';
import type { UploadStore } from './upload-store.ts';
import type { FinalizeResult } from './finalize-recording.ts';
import { handOverUpload, isLeftOver } from './hand-over.ts';

export const UPLOADS_PATH = '/uploads';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Where unfinished uploads live: beside the blobs, in the object store when STORAGE_URL names one,
 * else on disk ($DATA_DIR/uploads, 0700, made before the store that keeps them). An upload finished
 * or gone ends its claim on its owner's quota (the blob store's upload claims). `locker` is the
 * installation's upload locks (deps.ts: in memory, or in Redis so every web process sees them).
 */
export async function createUploadStore(config: Config, blobs: BlobStore, locker: Locker, s3?: S3Client): Promise<UploadStore> {
  const ended = (id: string) => blobs.uploads.release([id]);
  if (config.storage.kind === 's3' && s3) return new S3UploadStore({ client: s3, settings: config.storage, expiryMs: config.uploads.expiryMs, locker, ended });
  const directory = path.join(config.dataDir, 'uploads');
  await fsp.mkdir(directory, { recursive: true, mode: 0o700 });
  return new DurableFileStore({ directory, expiryMs: config.uploads.expiryMs, locker, ended });
}

type UploadsDeps = {
  config: Config;
  /** The upload store (deps.ts makes it: the meetings service cancels uploads in it and the worker sweeps it). */
  store: UploadStore;
  meetings: MeetingsService;
  blobs: BlobStore;
  auth: AuthContext;
  log: FastifyBaseLogger;
};

/** A tus hook error: the status and a JSON body the web app can show. */
const refuse = (status: number, message: string, reason?: UploadRefusal['error']['reason']) => ({
  status_code: status,
  body: JSON.stringify({ error: { message, reason } } satisfies UploadRefusal),
});
const isOurs = (error: { body?: unknown }) => typeof error.body === 'string' && error.body.startsWith('{');

/** 10 GB, 1.5 GB: the quota as people read it. */
const formatGb = (bytes: number) => `${Math.round((bytes / 1024 ** 3) * 10) / 10} GB`;

function bearer(req: Request): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.get('authorization') ?? '');
  return match?.[1];
}

/**
 * Resumable audio uploads (the tus protocol, @tus/server) at /uploads: live recordings stream in
 * with a deferred length while the meeting is being recorded, files are uploaded whole. Every
 * request carries the access token; an upload belongs to the person who created it and to one
 * of their meetings, which carries one upload at a time. Bytes are durable (fsynced, or stored by
 * the object store) before an offset is acknowledged. An upload may hold at most UPLOAD_MAX_MB and what is left of its owner's
 * STORAGE_QUOTA_GB; it expires UPLOAD_EXPIRY_HOURS after it began (upload-sweeper.ts removes it
 * and abandons its meeting), and once finished it answers HEAD with its whole length until then.
 */
export async function registerUploads(app: FastifyInstance, deps: UploadsDeps): Promise<void> {
  const datastore = deps.store;
  const maxMb = Math.round(deps.config.uploads.maxBytes / 1024 ** 2);
  const tooLarge = `This file is larger than the ${maxMb} MB upload limit.`;
  const overQuota = (quotaBytes: number) =>
    `This recording does not fit in your ${formatGb(quotaBytes)} of storage. Delete meetings you no longer need to make room, then try again.`;
  const hours = Math.round(deps.config.uploads.expiryMs / (60 * 60 * 1000));
  const expired = `This upload expired: an upload must finish within ${hours} hours of starting.`;
  /** The requests whose size limit was the account's storage quota (not UPLOAD_MAX_MB), for the words of a 413. */
  const quotaBound = new WeakMap<Request, number>();

  const userFor = async (req: Request) => {
    try {
      return (await authenticateToken(deps.auth, bearer(req))).user;
    } catch (error) {
      // A session that still owes its MFA challenge is refused outright (403); any other failure asks for a fresh token (401).
      if (error instanceof GoTrueError) throw refuse(error.code === 'insufficient_aal' ? 403 : 401, error.message);
      throw error;
    }
  };

  const quotaBytes = deps.config.uploads.quotaBytes;
  const claims = deps.blobs.uploads;
  /** The quota less the owner's imported transcript files, which it counts beside the stored bytes. */
  const roomFor = async (ownerId: string) => quotaBytes - (await deps.meetings.importedTextBytes(ownerId));

  /**
   * The most an upload may hold: UPLOAD_MAX_MB, or less when the account's quota has less room
   * left (the upload's own bytes are not counted: they are what is being limited). Asked twice by
   * a PATCH (our check before the bytes, then tus's cut-off), so worked out once per request.
   */
  const limits = new WeakMap<Request, Promise<number>>();
  const sizeLimit = (req: Request, uploadId: string | null): Promise<number> => {
    let limit = limits.get(req);
    if (!limit) limits.set(req, (limit = workOutSizeLimit(req, uploadId ?? '')));
    return limit;
  };
  const workOutSizeLimit = async (req: Request, uploadId: string): Promise<number> => {
    const user = await userFor(req);
    const leftBytes = await claims.roomLeft(uploadId, user.id, await roomFor(user.id));
    if (leftBytes >= deps.config.uploads.maxBytes) return deps.config.uploads.maxBytes;
    quotaBound.set(req, quotaBytes);
    // tus reads 0 as "no limit": an account with no room left may take at most one byte, which a 413 refuses.
    return Math.max(1, leftBytes);
  };
  const refuseTooLarge = (req: Request) => {
    const quotaBytes = quotaBound.get(req);
    return refuse(413, quotaBytes === undefined ? tooLarge : overQuota(quotaBytes));
  };

  /**
   * An upload's claim on its owner's room, checked and stored in one step per owner (the blob
   * store's upload claims, in the database: every web process sees every other's): a new upload's
   * declared length, or what a PATCH will make of it, must fit beside everything else of theirs; a
   * live recording's length is unknown at creation, but an account with no room left can take none of it.
   */
  const admit = async (ownerId: string, uploadId: string, bytes: number | 'deferred'): Promise<void> => {
    const room = await roomFor(ownerId);
    const admitted = bytes === 'deferred' ? await claims.reserve(uploadId, ownerId, 0, room - 1) : await claims.reserve(uploadId, ownerId, bytes, room);
    if (!admitted) throw refuse(413, overQuota(quotaBytes));
  };

  /** Hands a finished upload to its meeting. tus calls onUploadFinish after it lets go of the upload's lock, so a HEAD (below) can try the same at once. */
  const finish = (upload: Upload): Promise<FinalizeResult> =>
    handOverUpload({ store: datastore, meetings: deps.meetings, blobs: deps.blobs, maxRecordingHours: deps.config.transcription.maxRecordingHours }, upload);

  /** The upload becomes its meeting's (one upload per meeting), or is refused with why not. */
  const attach = async (ownerId: string, meetingId: string, type: string, upload: { id: string; metadata?: Record<string, string | null> }) => {
    let attached = await deps.meetings.attachUpload(ownerId, meetingId, upload.id);
    const current = attached.outcome === 'busy' ? await datastore.getUpload(attached.uploadId).catch(() => undefined) : undefined;
    if (current && (await isLeftOver(datastore, deps.blobs, current))) {
      // Every byte of the meeting's upload arrived but its process ended before handing it over (the
      // client forgot it and began again): handed over now, never replaced by a new one.
      await finish(current);
      attached = await deps.meetings.attachUpload(ownerId, meetingId, upload.id);
    } else if (attached.outcome === 'busy' && (await datastore.bytesOf(attached.uploadId)) === 0 && !(await datastore.isFinished(attached.uploadId))) {
      // The meeting's upload holds nothing yet (the answer to its creation was lost and the client
      // asked again): it is replaced, so a lost answer never strands a recording.
      const empty = attached.uploadId;
      await datastore.discard(empty);
      attached = await deps.meetings.attachUpload(ownerId, meetingId, upload.id, empty);
    }
    if (attached.outcome === 'not-found') throw refuse(404, 'Meeting not found');
    if (attached.outcome === 'has-audio') throw refuse(409, 'This meeting already has its audio.', UPLOAD_REFUSED_HAS_AUDIO);
    if (attached.outcome === 'failed') throw refuse(409, `This meeting takes no more audio. ${attached.reason ?? ''}`.trim());
    if (attached.outcome === 'busy') throw refuse(409, 'This meeting’s audio is already being uploaded.');
    return { metadata: { ...upload.metadata, meetingId, filetype: type, ownerId } };
  };

  /**
   * An upload whose every byte arrived but whose PATCH's process ended before it was handed over (a
   * crash, a deploy), its bytes still here or moved into the blob store: the client's next HEAD hears
   * "all arrived" and sends nothing more, so it is finished now, before that answer, or the recording
   * would wait for its meeting forever. An upload still arriving costs nothing more here (finish
   * checks it again under the lock).
   */
  const finishIfLeftOver = async (upload: Upload): Promise<void> => {
    if (!(await isLeftOver(datastore, deps.blobs, upload))) return;
    const result = await finish(upload);
    if (!result.ok) throw refuse(result.status, result.reason);
  };

  const tus = new Server({
    path: UPLOADS_PATH,
    datastore,
    // The store's locks (across web processes with REDIS_URL), so two requests for one upload never
    // write at once, and deleting a meeting (store.discard) stops a PATCH still writing its audio.
    locker: datastore.locker,
    relativeLocation: true,
    maxSize: sizeLimit,
    respectForwardedHeaders: deps.config.http.trustProxy,
    // The same origins as the rest of the server (http/security.ts: same-origin unless CORS_ORIGINS
    // names more): left out, tus would answer every origin with `Access-Control-Allow-Origin: *`.
    allowedOrigins: (origin) => deps.config.http.corsOrigins.includes(origin),
    allowedCredentials: true,
    onIncomingRequest: async (req, uploadId) => {
      const user = await userFor(req);
      if (req.method === 'POST' || !uploadId) return;
      const upload = await datastore.getUpload(uploadId).catch(() => undefined); // no such upload (or no readable info): a 404 below
      // Someone else's upload answers exactly like a missing one.
      if (!upload || upload.metadata?.ownerId !== user.id) throw refuse(404, 'Upload not found');
      if (req.method === 'HEAD') await finishIfLeftOver(upload);
      if (req.method === 'PATCH') {
        // A length known (declared now or at creation, or the bytes this request says it brings) is
        // checked against the quota before any byte is written; a chunked body is cut off at the limit by tus.
        const declared = Number(req.headers.get('upload-length') ?? upload.size ?? upload.offset + Number(req.headers.get('content-length') ?? 0));
        if (declared > (await sizeLimit(req, uploadId))) throw refuseTooLarge(req);
        // Claimed before any byte is written, so two live recordings' PATCHes at once cannot each see
        // the other's bytes not yet written. The claim stays what the PATCH declared: the bytes it
        // brought, or (cut short) more than arrived, which the next PATCH's claim corrects.
        await admit(user.id, uploadId, declared);
      }
    },
    onUploadCreate: async (req, upload) => {
      const user = await userFor(req);
      const meetingId = upload.metadata?.meetingId ?? '';
      const type = baseMime(upload.metadata?.filetype ?? '');
      if (!UUID.test(meetingId)) throw refuse(400, 'The upload must name its meeting (meetingId).');
      if (!extensionFor(type)) {
        throw refuse(415, `Parley cannot take ${type || 'files of unknown type'}: use an audio file (mp3, m4a, wav, webm, ogg or mp4 audio).`);
      }
      await admit(user.id, upload.id, upload.sizeIsDeferred ? 'deferred' : (upload.size ?? 0));
      try {
        return await attach(user.id, meetingId, type, upload);
      } catch (error) {
        await claims.release([upload.id]);
        throw error;
      }
    },
    onUploadFinish: async (_req, upload) => {
      const result = await finish(upload);
      if (!result.ok) throw refuse(result.status, result.reason);
      return {};
    },
    onResponseError: (req, error) => {
      // tus's own 413s ("Maximum size exceeded") say which limit, and what to do.
      if ('status_code' in error && error.status_code === 413 && !isOurs(error)) return refuseTooLarge(req);
      if ('status_code' in error && error.status_code === 410 && !isOurs(error)) return refuse(410, expired);
      if ('status_code' in error) return undefined;
      deps.log.error({ err: error }, 'upload failed');
      return { status_code: 500, body: JSON.stringify({ error: { message: 'The upload failed on the server. It will resume from the last saved byte.' } }) };
    },
  });
  tus.on(EVENTS.POST_TERMINATE, (_req, _res, id) => {
    void deps.meetings.detachUpload(id);
    claims.release([id]).catch((error: unknown) => deps.log.error({ err: error }, 'an ended upload kept its claim on the quota'));
  });

  await app.register(async (scope) => {
    // tus reads the raw request body itself.
    scope.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));
    const handle = async (request: { raw: IncomingMessage }, reply: { hijack: () => void; raw: ServerResponse }) => {
      reply.hijack();
      const id = request.raw.url?.split('?')[0]?.split('/').pop() ?? '';
      if (request.raw.method === 'PATCH' && (await datastore.isFinished(id))) {
        // A repeated final PATCH (its answer was lost) gets what HEAD says of a finished upload: the
        // whole length as the offset, after the same authentication and ownership checks. The bytes
        // it brings again are not needed.
        request.raw.resume();
        request.raw.method = 'HEAD';
      }
      await tus.handle(request.raw, reply.raw);
    };
    scope.all(UPLOADS_PATH, handle);
    scope.all(`${UPLOADS_PATH}/*`, handle);
  });
}
