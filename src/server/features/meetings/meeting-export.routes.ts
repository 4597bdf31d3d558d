import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { fillPath } from '#shared/contracts/endpoint.ts';
import { meetingEndpoints } from '#shared/contracts/meetings.ts';
import { AppError, notFound } from '#server/lib/app-error.ts';
import type { BlobStore } from '#server/lib/blob-store.ts';
import { AudioDecodeError } from '#server/lib/ffmpeg.ts';
import type { Router } from '#server/http/endpoint-route.ts';
import { caller, sessionCaller } from '../auth/api-guard.ts';
import type { BillingService } from '../billing/billing.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import type { AudioLinks } from './audio-link.ts';
import { computeAudioPeaks, createPeaksCache } from './audio-peaks.ts';
import { parseRange } from './byte-range.ts';
import { contentDisposition, safeFileStem } from './content-disposition.ts';
import { exportMeeting } from './meeting-export.ts';
import type { MeetingsService } from './meetings.service.ts';
import { presentMeeting } from './meetings.routes.ts';

type ExportRouteDeps = {
  meetings: MeetingsService;
  blobs: BlobStore;
  audioLinks: AudioLinks;
  /** Whether a sign-in session is still open (auth's accounts port): a player's link lives only as long as the session that asked for it. */
  sessionActive: (userId: string, sessionId: string) => Promise<boolean>;
  settings: Pick<SettingsService, 'timeZoneOf' | 'audioFormat'>;
  /** The export formats of the caller's plan. */
  billing: Pick<BillingService, 'assertExport'>;
} & Parameters<typeof presentMeeting>[1];

/**
 * Sends a stored file with byte ranges, so players can seek and large files can resume. The key
 * names an immutable blob; the size is in the ETag because a recording still being written grows.
 */
async function sendBlob(
  request: FastifyRequest,
  reply: FastifyReply,
  blobs: BlobStore,
  file: { key: string; mime: string; fileName: string; disposition: 'inline' | 'attachment' },
) {
  const { key } = file;
  const size = await blobs.size(key);
  const etag = `"${key.replace(/^.*\//, '').replace(/\..*$/, '')}-${key.slice(key.lastIndexOf('.') + 1)}-${size}"`;
  const ifRange = request.headers['if-range'];
  const range = ifRange === undefined || ifRange === etag ? parseRange(request.headers.range, size) : ({ kind: 'full' } as const);

  void reply
    .header('accept-ranges', 'bytes')
    .header('etag', etag)
    .header('cache-control', 'private, no-cache')
    .header('content-disposition', contentDisposition(file.fileName, file.disposition));
  if (range.kind === 'unsatisfiable') {
    return reply
      .status(416)
      .header('content-range', `bytes */${size}`)
      .send({ error: { code: 'VALIDATION_FAILED', message: `The requested range is outside the recording (${size} bytes)` } });
  }
  void reply.header('content-type', file.mime);
  if (range.kind === 'full') {
    return reply.header('content-length', size).send(blobs.createReadStream(key));
  }
  return reply
    .status(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
    .header('content-length', range.end - range.start + 1)
    .send(blobs.createReadStream(key, { start: range.start, end: range.end }));
}

/**
 * Downloads of a meeting the caller may read (their own, or one shared with their team): its notes
 * and transcript as a file (txt, md, docx, pdf; srt, vtt), the recording itself, with byte ranges so
 * players can seek and large files can resume (the player streams it through a short-lived link,
 * audio-link.ts, and draws the waveform from audioPeaks), and the recording converted for download.
 * Any other meeting's id is a 404.
 */
export function registerMeetingExportRoutes(route: Router, deps: ExportRouteDeps): void {
  const { meetings, blobs, audioLinks, sessionActive, settings } = deps;
  const peaksOf = createPeaksCache((key) => blobs.withLocalFile(key, (file) => computeAudioPeaks(file)));

  /**
   * Sends this answer only while its reader may read the meeting: a member removed from the team, or
   * a meeting unshared or deleted, cuts a download or stream already under way (the connection is
   * closed). Called before access is checked, so a change in between is caught too.
   */
  const whileReadable = (reply: FastifyReply, userId: string, meetingId: string): void => {
    const forget = meetings.readStarted(meetingId, userId, () => reply.raw.destroy());
    reply.raw.once('finish', forget).once('close', forget);
  };

  route(meetingEndpoints.export, async (request, reply) => {
    const userId = caller(request).user.id;
    whileReadable(reply, userId, request.params.id);
    const record = await meetings.read(userId, request.params.id);
    if (!record) throw notFound('Meeting');
    await deps.billing.assertExport(userId, request.query.format);
    const [meeting, timeZone] = await Promise.all([presentMeeting(record, deps), settings.timeZoneOf(userId)]);
    const file = await exportMeeting(meeting, request.query.format, timeZone);
    await meetings.exported(userId, meeting.id);
    return (
      reply
        .header('content-type', file.contentType)
        .header('content-disposition', contentDisposition(`${safeFileStem(meeting.title)}.${file.extension}`))
        // A transcript is personal: no shared cache may keep it.
        .header('cache-control', 'private, no-store')
        .send(file.body)
    );
  });

  route(meetingEndpoints.audio, async (request, reply) => sendAudio(request, reply, caller(request).user.id));

  route(meetingEndpoints.audioLink, async (request) => {
    const { user, session } = sessionCaller(request);
    const userId = user.id;
    const meeting = await meetings.audio(userId, request.params.id);
    if (!meeting) throw notFound('Meeting');
    if (!meeting.key) throw new AppError('NOT_FOUND', 'This meeting has no audio recording');
    const { token, expiresAt } = audioLinks.issue(request.params.id, { userId, sessionId: session.id });
    return { url: `${fillPath(meetingEndpoints.audioStream.path, request.params)}?token=${token}`, expiresAt: expiresAt.toISOString() };
  });

  route(meetingEndpoints.audioStream, async (request, reply) => {
    const holder = audioLinks.verify(request.params.id, request.query.token);
    // One answer for a forged, expired or another meeting's link, or one whose session was signed out: the player asks for a new one.
    if (!holder || !(await sessionActive(holder.userId, holder.sessionId)))
      throw new AppError('FORBIDDEN', 'This link to the recording has expired or is not valid');
    // The meeting is read as the person the link was issued to, so it is theirs as of now.
    return sendAudio(request, reply, holder.userId);
  });

  route(meetingEndpoints.audioPeaks, async (request) => {
    const { key } = await storedAudio(caller(request).user.id, request.params.id, request.log);
    const size = await blobs.size(key);
    try {
      return await peaksOf(`${key}:${size}`, key);
    } catch (error) {
      request.log.error({ meetingId: request.params.id, err: error }, 'the waveform of a recording could not be worked out');
      throw new AppError('VALIDATION_FAILED', 'The waveform of this recording could not be read');
    }
  });

  route(meetingEndpoints.audioDownload, async (request, reply) => {
    const userId = caller(request).user.id;
    whileReadable(reply, userId, request.params.id);
    const format = request.query.format ?? (await settings.audioFormat(userId));
    let download: Awaited<ReturnType<MeetingsService['audioDownload']>>;
    try {
      download = await meetings.audioDownload(userId, request.params.id, format);
    } catch (error) {
      if (!(error instanceof AudioDecodeError)) throw error;
      // The recording was proven decodable when it was stored: this is the server's fault, not the person's.
      request.log.error({ err: error, meetingId: request.params.id, format }, 'recording could not be converted for download');
      throw new AppError('INTERNAL', `The recording could not be converted to ${format.toUpperCase()}.`);
    }
    if (!download) throw notFound('Meeting');
    if (!download.recordingKey) throw new AppError('NOT_FOUND', 'This meeting has no audio recording');
    if (!download.file) {
      request.log.error({ meetingId: request.params.id, key: download.recordingKey }, 'audio blob missing');
      throw new AppError('NOT_FOUND', 'The audio file of this meeting is missing');
    }
    return sendBlob(request, reply, blobs, {
      key: download.file.key,
      mime: download.file.mime,
      fileName: `${safeFileStem(download.title)}.${download.file.extension}`,
      disposition: 'attachment',
    });
  });

  /** The caller's meeting's recording, or the 404 that says why there is none. */
  async function storedAudio(userId: string, meetingId: string, log: FastifyBaseLogger) {
    const meeting = await meetings.audio(userId, meetingId);
    if (!meeting) throw notFound('Meeting');
    if (!meeting.key) throw new AppError('NOT_FOUND', 'This meeting has no audio recording');
    const key = meeting.key;
    if (!(await blobs.exists(key))) {
      log.error({ meetingId, key }, 'audio blob missing');
      throw new AppError('NOT_FOUND', 'The audio file of this meeting is missing');
    }
    return { ...meeting, key };
  }

  async function sendAudio(request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply, userId: string) {
    whileReadable(reply, userId, request.params.id);
    const meeting = await storedAudio(userId, request.params.id, request.log);
    const extension = meeting.key.slice(meeting.key.lastIndexOf('.') + 1);
    return sendBlob(request, reply, blobs, {
      key: meeting.key,
      mime: meeting.mime ?? 'application/octet-stream',
      fileName: `${safeFileStem(meeting.title)}.${extension}`,
      disposition: 'inline',
    });
  }
}
